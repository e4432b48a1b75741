import { describe, expect, it } from 'vitest';
import { runPiped, savedChat, startAtPrompt } from '../helpers/pty.js';
import { fileHashes, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** A closed session of `questions.length` exchanges, made by a piped chat; its ID. */
const chat = (home: string, cwd: string, questions: string[]): Promise<string> => savedChat(`${questions.join('\n')}\n/quit\n`, { home, cwd });

interface Shown {
  id: string;
  parentId?: string;
  forkPoint?: number;
  forks: { id: string; forkPoint: number }[];
  messages: { content: string }[];
}

async function show(home: string, cwd: string, id: string): Promise<Shown> {
  const run = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Shown;
}

describe('chatkeep --fork ID [--at N]', () => {
  it('continues in a new session holding a copy; the original is untouched byte for byte and lists its fork', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const parent = await chat(home, cwd, ['one', 'two']);
    const before = fileHashes(sessionDir(home, parent)!);

    const whole = await runPiped(['--fork', parent], 'three\n/quit\n', { home, cwd });
    expect(whole.code).toBe(0);
    expect(whole.stdout).toBe('Echo: three (read 5 messages)\n');
    const child = /Saved (\S+) \(6 messages\)/.exec(whole.stderr)?.[1];
    expect(child).toBeDefined();
    expect(child).not.toBe(parent);
    expect(whole.stderr).toContain(`New session ${child}, forked from ${parent} at message 4 (4 messages, project ${cwd})`);

    const cut = await runPiped(['--fork', parent, '--at', '2'], 'again\n/quit\n', { home, cwd });
    expect(cut.stdout).toBe('Echo: again (read 3 messages)\n');
    const second = /Saved (\S+) \(4 messages\)/.exec(cut.stderr)?.[1]!;

    expect(fileHashes(sessionDir(home, parent)!)).toEqual(before);
    expect(await show(home, cwd, second)).toMatchObject({
      parentId: parent,
      forkPoint: 2,
      forks: [],
      messages: [{ content: 'one' }, { content: 'Echo: one (read 1 message)' }, { content: 'again' }, { content: 'Echo: again (read 3 messages)' }],
    });
    const original = await show(home, cwd, parent);
    expect(original.forks).toEqual([
      { id: child, forkPoint: 4 },
      { id: second, forkPoint: 2 },
    ]);
    expect(original.parentId).toBeUndefined();
    expect(original.messages).toHaveLength(4);

    const text = await runPiped(['sessions', 'show', parent], '', { home, cwd });
    expect(text.stdout).toContain(`\n  forks: ${child} (at message 4), ${second} (at message 2)\n`);
    expect((await runPiped(['sessions', 'show', second], '', { home, cwd })).stdout).toContain(`\n  forked from ${parent} at message 2\n`);
    const list = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout) as Record<string, unknown>[];
    expect(list.find((r) => r.id === second)).toMatchObject({ parentId: parent, forkPoint: 2 });
    expect(list.find((r) => r.id === parent)).not.toHaveProperty('parentId');
  });

  it('refuses a bad --at in one line (exit 2), creating no session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const parent = await chat(home, cwd, ['one', 'two']);
    const cases: [string[], string][] = [
      [['--fork', parent, '--at', 'x'], 'chatkeep: Bad --at `x`: give the number of messages the fork keeps (0 or more), such as --at 4.\n'],
      [['--fork', parent, '--at', '5'], `chatkeep: Cannot fork ${parent} at message 5: it has 4 messages (give 0 to 4).\n`],
      [['--at', '2'], 'chatkeep: --at goes with --fork ID (fork after message N). See chatkeep --help\n'],
      [['--fork', parent, '-c'], 'chatkeep: --fork starts a new session: use it without --session-id, --continue and --resume. See chatkeep --help\n'],
      [['--fork', 'session-19990101-000000'], 'chatkeep: No session `session-19990101-000000`. List sessions with: chatkeep sessions list --all\n'],
    ];
    for (const [args, stderr] of cases) expect(await runPiped(args, 'hi\n/quit\n', { home, cwd })).toEqual({ code: 2, stdout: '', stderr });
    const list = JSON.parse((await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd })).stdout) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('forks a session another chat holds open, without touching it', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('shared', 'Echo: shared');
    const fork = await runPiped(['--fork', id], 'mine\n/quit\n', { home, cwd });
    expect(fork.code).toBe(0);
    expect(fork.stdout).toBe('Echo: mine (read 3 messages)\n');
    expect(await run.say('theirs', 'Echo: theirs (read 3 messages)')).toContain('Echo: theirs (read 3 messages)');
    expect(await run.quit()).toBe(0);
    expect((await show(home, cwd, id)).messages.map((m) => m.content)).toEqual(['shared', 'Echo: shared (read 1 message)', 'theirs', 'Echo: theirs (read 3 messages)']);
  });
});

describe('/fork in the chat', () => {
  it('switches to the fork, closing and releasing the original; a bad --at is one line and the chat goes on', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('first', 'Echo: first');
    await run.say('second', 'Echo: second');

    let from = run.screen().length;
    // A command's refusal in the chat's words, as every host says it: no program's name before it.
    await run.say('/fork --at x', 'Bad --at `x`');
    await run.say('/fork --at 9', `Cannot fork ${id} at message 9: it has 4 messages (give 0 to 4).`);
    expect(run.screen().slice(from)).not.toContain('Forked');

    from = run.screen().length;
    await run.say('/fork --at 2 side quest', /New session (\S+), forked from/);
    const screen = await run.prompt(); // the whole answer is there once the prompt is back
    const fork = /New session (\S+), forked from/.exec(screen.slice(from))![1]!;
    expect(screen.slice(from)).toContain(`Saved ${id} (4 messages). Forked ${id}: now in ${fork}.`);
    expect(screen.slice(from)).toContain(`New session ${fork}, forked from ${id} at message 2 (2 messages, project ${cwd})`);
    await run.say('third', 'Echo: third (read 3 messages)');

    from = run.screen().length;
    await run.say('/sessions', '/load ID to switch');
    const rows = run.screen().slice(from);
    expect(rows).toMatch(new RegExp(`\\* ${fork} .* open\\s+forked from ${id} at message 2\\s+side quest`));
    expect(rows).toMatch(new RegExp(`  ${id} .* closed\\s+first`));

    // The original is closed and released: another process may take it now.
    const resumed = await runPiped(['--session-id', id], '/quit\n', { home, cwd });
    expect(resumed.code).toBe(0);
    expect(await run.quit()).toBe(0);
    expect((await show(home, cwd, id)).messages).toHaveLength(4);
    expect(await show(home, cwd, fork)).toMatchObject({ parentId: id, forkPoint: 2, messages: [{}, {}, { content: 'third' }, {}] });
  });
});

describe('a fork in piped listings', () => {
  it('sessions list on a pipe: the lineage follows the fork’s title; other rows keep no blank column for it', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const made = await runPiped([], 'first words\n/fork\nmore\n/quit\n', { home, cwd });
    expect(made.code, made.stderr).toBe(0);
    const [, parent, fork] = /Forked (\S+): now in (\S+)\./.exec(made.stderr + made.stdout)!;
    const listed = await runPiped(['sessions', 'list'], '', { home, cwd });
    const rows = listed.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(2);
    const forkRow = rows.find((line) => line.includes(`  ${fork!}  `))!;
    const parentRow = rows.find((line) => line.includes(`  ${parent!}  `))!;
    expect(forkRow).toMatch(new RegExp(` closed {2}first words {2}\\(forked from ${parent!} at message 2\\)$`));
    // The parent's title comes right after its status, as in a listing without forks.
    expect(parentRow).toMatch(/ closed {2}first words$/);
  });
});
