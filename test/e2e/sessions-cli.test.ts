import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('chatkeep sessions', () => {
  it('list --json and show --json have the documented shapes', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const chat = await runPiped([], 'question\n/save my title\n/quit\n', { home, cwd });
    const id = /Saved (\S+) \(/.exec(chat.stderr)?.[1];

    const list = await runPiped(['sessions', 'list', '--json'], '', { home, cwd });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      {
        id,
        title: 'my title',
        titleSource: 'user',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        messageCount: 2,
        status: 'closed',
        project: cwd,
        usage: { inputTokens: 1, outputTokens: 5 },
      },
    ]);

    const show = await runPiped(['sessions', 'show', id!.slice(0, -1), '--json'], '', { home, cwd });
    expect(show.code).toBe(0);
    const session = JSON.parse(show.stdout) as Record<string, unknown>;
    expect(session).toMatchObject({ id, title: 'my title', status: 'closed', project: cwd });
    expect(session.messages).toEqual([
      { role: 'user', content: 'question', timestamp: expect.stringMatching(/Z$/) },
      {
        role: 'assistant',
        content: 'Echo: question (read 1 message)',
        timestamp: expect.stringMatching(/Z$/),
        usage: { inputTokens: 1, outputTokens: 5 },
      },
    ]);
    expect(session.usage).toEqual({ inputTokens: 1, outputTokens: 5 });

    const text = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(text.stdout).toMatch(new RegExp(`^  ${id}\\s+less than a minute ago\\s+2 messages · 6 tokens\\s+closed\\s+my title\\n$`));
    const other = await runPiped(['sessions', 'list', '--json'], '', { home, cwd: tmpHome('chatkeep-other-') });
    expect(JSON.parse(other.stdout)).toEqual([]);
    const all = await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd: tmpHome('chatkeep-other-') });
    expect((JSON.parse(all.stdout) as { id: string }[]).map((r) => r.id)).toEqual([id]);
  });

  it("show prints each message's time: how long ago on a terminal, ISO 8601 in a pipe and in --json", async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const chat = await runPiped([], 'question\n/quit\n', { home, cwd });
    const id = /Saved (\S+) \(/.exec(chat.stderr)?.[1];
    const json = JSON.parse((await runPiped(['sessions', 'show', id!, '--json'], '', { home, cwd })).stdout) as {
      messages: { timestamp: string }[];
    };
    const [asked, answered] = json.messages.map((m) => m.timestamp);
    expect(asked).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const piped = await runPiped(['sessions', 'show', id!], '', { home, cwd });
    expect(piped.stdout).toContain(`\n[${asked}]\n› question\n\n[${answered}]\nEcho: question (read 1 message)\n`);

    const tty = spawnPty(['sessions', 'show', id!], { home, cwd });
    expect(await tty.exited).toBe(0);
    expect(tty.screen()).toContain('\n[less than a minute ago]\n› question\n\n[less than a minute ago]\nEcho: question (read 1 message)\n');
  });

  it('lists nothing and creates nothing when the home does not exist', async () => {
    const home = `${tmpHome()}/absent`;
    const list = await runPiped(['sessions', 'list', '--json'], '', { home, cwd: tmpHome() });
    expect(list).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    const show = await runPiped(['sessions', 'show', 'nope'], '', { home, cwd: tmpHome() });
    expect(show.code).toBe(2);
    expect(show.stderr).toBe('chatkeep: No session `nope`. List sessions with: chatkeep sessions list --all\n');
  });

  it('list shows the newest N with --limit and says how to see the rest; --json and --limit 0 list every one', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const ids: string[] = [];
    for (const line of ['first', 'second', 'third']) {
      const chat = await runPiped([], `${line}\n/quit\n`, options);
      ids.unshift(/Saved (\S+) \(/.exec(chat.stderr)![1]!);
    }
    const two = await runPiped(['sessions', 'list', '--limit', '2'], '', options);
    expect([two.code, two.stderr]).toEqual([0, '']);
    const lines = two.stdout.split('\n');
    expect(lines.map((l) => /session-\S+/.exec(l)?.[0])).toEqual([ids[0], ids[1], undefined, undefined]);
    expect(lines.slice(2)).toEqual(['The newest 2 shown. --limit N shows more (0: all).', '']);
    // The line's advice runs as said: --limit 0 lists all three, without the line.
    const every = await runPiped(['sessions', 'list', '--limit', '0'], '', options);
    expect(every.stdout.trimEnd().split('\n').map((l) => /session-\S+/.exec(l)?.[0])).toEqual(ids);
    const json = await runPiped(['sessions', 'list', '--json'], '', options);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((r) => r.id)).toEqual(ids);
    const jsonTwo = await runPiped(['sessions', 'list', '--json', '--limit', '2'], '', options);
    expect((JSON.parse(jsonTwo.stdout) as { id: string }[]).map((r) => r.id)).toEqual(ids.slice(0, 2));
  });
});
