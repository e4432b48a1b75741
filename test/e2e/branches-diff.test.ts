/**
 * `chatkeep sessions diff A B` as scripts and people use it: piped (one side after the other,
 * exit 0 same / 1 different as diff), --json, any two sessions (the common start found by
 * content), and on a terminal of 80 and 120 columns (side by side when wide enough).
 */
import { describe, expect, it } from 'vitest';
import { runPiped, savedChat, spawnPty } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const LONG = 'three is a long message that goes on and on so that a column of the side by side view must wrap it';

async function pair(): Promise<{ options: { home: string; cwd: string }; a: string; b: string }> {
  const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
  const a = await savedChat('one\ntwo\n/quit\n', options);
  const b = await savedChat(`${LONG}\n/quit\n`, options, ['--fork', a, '--at', '2']);
  return { options, a, b };
}

describe('chatkeep sessions diff A B', () => {
  it('piped: counts the common start, then each side after it, one after the other; exit 1 when they differ, 0 when the same', async () => {
    const { options, a, b } = await pair();
    const differ = await runPiped(['sessions', 'diff', a, b], '', options);
    expect(differ).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        `${a} and ${b} share their first 2 messages, then part.`,
        '',
        `${a}: 2 messages from message 3`,
        '[3] user',
        '› two',
        '[4] assistant',
        'Echo: two (read 3 messages)',
        '',
        `${b}: 2 messages from message 3`,
        '[3] user',
        `› ${LONG}`,
        '[4] assistant',
        `Echo: ${LONG} (read 3 messages)`,
        '',
      ].join('\n'),
    });
    expect(await runPiped(['sessions', 'diff', a, a], '', options)).toEqual({ code: 0, stderr: '', stdout: `${a} and ${a} hold the same 4 messages.\n` });

    const json = await runPiped(['sessions', 'diff', b, a, '--json'], '', options);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      same: false,
      common: 2,
      a: { id: b, messageCount: 4, after: [{ role: 'user', content: LONG }, { role: 'assistant' }] },
      b: { id: a, messageCount: 4, after: [{ role: 'user', content: 'two' }, { role: 'assistant', content: 'Echo: two (read 3 messages)' }] },
    });
  });

  it('compares sessions that are not related by what they say, a fork at 0 parting at once', async () => {
    const { options, a } = await pair();
    const stranger = await savedChat('one\nsomething else\n/quit\n', options);
    const run = await runPiped(['sessions', 'diff', a, stranger, '--json'], '', options);
    expect(JSON.parse(run.stdout)).toMatchObject({ same: false, common: 2, a: { after: [{ content: 'two' }, {}] }, b: { after: [{ content: 'something else' }, {}] } });
    const empty = await savedChat('new\n/quit\n', options, ['--fork', a, '--at', '0']);
    const parted = await runPiped(['sessions', 'diff', empty, a], '', options);
    expect(parted.code).toBe(1);
    expect(parted.stdout.split('\n')[0]).toBe(`${empty} and ${a} differ from their first message.`);
  });

  it('refuses a missing or unknown ID in one line (exit 2)', async () => {
    const { options, a } = await pair();
    expect(await runPiped(['sessions', 'diff', a], '', options)).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: sessions diff needs two session IDs. See chatkeep sessions --help\n' });
    expect(await runPiped(['sessions', 'diff', a, 'session-19990101-000000'], '', options)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chatkeep: No session `session-19990101-000000`. List sessions with: chatkeep sessions list --all\n',
    });
  });

  it('on a terminal of 120 columns puts the two sides side by side, each wrapped to its column', async () => {
    const { options, a, b } = await pair();
    const run = spawnPty(['sessions', 'diff', a, b], { ...options, columns: 120 });
    expect(await run.exited).toBe(1);
    const lines = await run.visible();
    const at = lines.indexOf(`${a} and ${b} share their first 2 messages, then part.`);
    expect(at).toBeGreaterThanOrEqual(0);
    const rows = lines.slice(at + 2);
    expect(rows[0]).toMatch(new RegExp(`^${a}: 2 messages from message 3 +│ ${b}: 2 messages from message 3$`));
    expect(rows[1]).toMatch(/^\[3\] user +│ \[3\] user$/);
    expect(rows[2]).toMatch(/^› two +│ › three is a long message that goes on and on so that a$/);
    expect(rows[3]).toMatch(/^ +│ column of the side by side view must wrap it$/);
    // Message beside message: the answers start on the same row.
    expect(rows[4]).toMatch(/^\[4\] assistant +│ \[4\] assistant$/);
    expect(rows[5]).toMatch(/^Echo: two \(read 3 messages\) +│ Echo: three is a long message that goes on and on so that$/);
    // The rule stands in one column all the way down, and nothing wraps on the screen.
    for (const row of rows.filter((r) => r !== '')) expect(row.indexOf('│')).toBe(59);
    expect(await run.wrapped()).toEqual([]);
  });

  it('on a terminal of 80 columns shows one side after the other', async () => {
    const { options, a, b } = await pair();
    const run = spawnPty(['sessions', 'diff', a, b], { ...options, columns: 80 });
    expect(await run.exited).toBe(1);
    const screen = (await run.visible()).join('\n');
    expect(screen).toContain(`${a}: 2 messages from message 3\n[3] user\n› two\n[4] assistant\nEcho: two (read 3 messages)\n\n${b}: 2 messages from message 3\n[3] user\n› three`);
    expect(screen).not.toContain('│');
    expect(await run.wrapped()).toEqual([]);
  });
});
