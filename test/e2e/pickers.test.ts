import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** The stale time the tests run with: the picker is left open for several of them. */
const STALE = { CHATKEEP_LOCK_STALE_MS: '2000' };

/** The messages of a session on disk, as `sessions show --json` gives them. */
async function shownMessages(id: string, where: { home: string; cwd: string }): Promise<string[]> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', where);
  expect(shown.code).toBe(0);
  return (JSON.parse(shown.stdout) as { messages: { content: string }[] }).messages.map((m) => m.content);
}

/** Creates a finished session with one exchange, so that pickers have something to list. */
async function otherSession(where: { home: string; cwd: string }): Promise<void> {
  const made = await runPiped([], 'an older conversation\n/quit\n', where);
  expect(made.code).toBe(0);
}

const CANCEL_KEYS: [string, string][] = [
  ['Ctrl-C', '\x03'],
  ['Ctrl-D', '\x04'],
  ['Esc', '\x1b'],
  ['q', 'q'],
];

describe('pickers', () => {
  it('/load: Ctrl-C, Ctrl-D, Esc and q cancel the picker, and the REPL carries on', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await otherSession(where);
    const { run, id } = await startAtPrompt([], where);
    for (const [name, key] of CANCEL_KEYS) {
      const from = run.screen().length;
      run.line('/load');
      await run.waitFor('Load which session?', { from });
      run.write(key);
      await run.waitFor(`Cancelled; still in ${id}.`, { from }).catch((err: unknown) => {
        throw new Error(`${name} did not cancel: ${String(err)}`);
      });
      await run.prompt();
    }
    await run.say('still here', 'Echo: still here (read 1 message)');
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (2 messages).`);
  });

  it('-r: Ctrl-C, Ctrl-D, Esc and q cancel the picker, exit 0 and create nothing', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await otherSession(where);
    for (const [name, key] of CANCEL_KEYS) {
      const run = spawnPty(['-r'], where);
      await run.waitFor('Resume which session?');
      run.write(key);
      expect(await run.exited, `${name} ends the picker`).toBe(0);
      expect(run.screen()).toContain('No session picked. Start a new one with: chatkeep');
    }
    const listed = await runPiped(['sessions', 'list', '--json'], '', where);
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(1);
  });

  it('keeps the lock while a picker stays open for longer than the stale time', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    await otherSession(where);
    const { run, id } = await startAtPrompt([], { ...where, env: STALE });
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.line('/load');
    await run.waitFor('Load which session?');
    // Three stale times with the picker open: the heartbeat must go on meanwhile.
    await sleep(6_000);
    for (const host of [undefined, 'other-host']) {
      const second = await runPiped(['--session-id', id], 'typed elsewhere\n/quit\n', { ...where, env: STALE, host });
      expect(second.code, `a second process on ${host ?? 'this host'}: ${second.stderr}`).toBe(3);
      expect(second.stderr).toContain(`Session ${id} is in use by process ${run.pid} on `);
    }
    run.write('0');
    await run.waitFor(`Cancelled; still in ${id}.`);
    await run.say('second words', 'Echo: second words (read 3 messages)');
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (4 messages).`);
    expect(await shownMessages(id, where)).toEqual([
      'first words',
      'Echo: first words (read 1 message)',
      'second words',
      'Echo: second words (read 3 messages)',
    ]);
  }, 60_000);
});
