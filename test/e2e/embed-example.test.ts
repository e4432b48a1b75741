/**
 * The two embedding examples of docs/library.md (`examples/`), run in a pseudo-terminal as a
 * person runs them: what the screen shows, what is on disk, and that the printed way back runs
 * as printed (the host's own program, not chatkeep).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../torture/proc.js';
import { spawnPty, type PtyRun } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

const NODE_REPL = fileURLToPath(new URL('../../examples/embed-node-repl.mjs', import.meta.url));
const READLINE = fileURLToPath(new URL('../../examples/embed-readline.mjs', import.meta.url));
const LIBRARY_DOC = fileURLToPath(new URL('../../docs/library.md', import.meta.url));

/** Lines of host code: not blank, not a comment. */
function hostLines(file: string): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('//')).length;
}

/** The examples print commands relative to the checkout (`node examples/…`): they run from there. */
function run(script: string, args: string[], home: string): PtyRun {
  return spawnPty(args, { home, cwd: ROOT, script });
}

/** Types `text` once `prompt` ends the screen, and waits for `until` after it. */
async function type(run: PtyRun, prompt: string, text: string, until: string | RegExp): Promise<string> {
  await run.waitFor(new RegExp(`${prompt}$`));
  const from = run.screen().length;
  run.line(text);
  await run.waitFor(until, { from });
  return run.screen().slice(from);
}

/** The messages stored in a session, as `chatkeep sessions show --json` reads them. */
function storedMessages(home: string, id: string): { role: string; content: string }[] {
  const out = execFileSync(process.execPath, [`${ROOT}/bin/chatkeep.js`, 'sessions', 'show', id, '--json'], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home }, encoding: 'utf8' });
  return (JSON.parse(out) as { messages: { role: string; content: string }[] }).messages.map(({ role, content }) => ({ role, content }));
}

describe('the node:repl example', () => {
  it('is printed in the docs as it is in examples/, in at most 10 lines of host code', () => {
    expect(readFileSync(LIBRARY_DOC, 'utf8')).toContain(`\`\`\`js\n${readFileSync(NODE_REPL, 'utf8')}\`\`\`\n`);
    expect(hostLines(NODE_REPL)).toBeLessThanOrEqual(10);
  });

  it('journals every evaluation, answers .save and .sessions, and prints a way back that runs as printed', async () => {
    const home = tmpHome();
    const first = run(NODE_REPL, [], home);
    await first.waitFor(/session (session-\S+) · 0 messages · autosave every 5 min/);
    const id = /session (session-\S+) · 0 messages/.exec(first.screen())![1]!;
    await type(first, 'embed> ', '1 + 1', '2');
    await type(first, 'embed> ', 'const x = 40', 'undefined');
    await type(first, 'embed> ', 'x + 2', '42');
    const saved = await type(first, 'embed> ', '.save first try', 'Saved');
    expect(saved).toContain(`Saved ${id} as "first try" (6 messages) to ${sessionDir(home, id)}/session.json`);
    const listed = await type(first, 'embed> ', '.sessions', '.load ID to switch');
    expect(listed).toMatch(new RegExp(`\\* ${id}  .*6 messages  open .*first try`));
    await first.waitFor(/embed> $/);
    first.line('.exit');
    expect(await first.exited).toBe(0);
    const visible = await first.visible();
    expect(visible.slice(-2)).toEqual([`Saved ${id} (6 messages).`, `Resume with: node examples/embed-node-repl.mjs ${id}`]);
    expect(storedMessages(home, id)).toEqual([
      { role: 'user', content: '1 + 1' },
      { role: 'assistant', content: '2' },
      { role: 'user', content: 'const x = 40' },
      { role: 'assistant', content: 'undefined' },
      { role: 'user', content: 'x + 2' },
      { role: 'assistant', content: '42' },
    ]);

    // The printed command, as printed (a prefix of the ID works too).
    const command = visible.at(-1)!.replace('Resume with: ', '').replace(id, id.slice(0, -2));
    const again = run(NODE_REPL, command.split(' ').slice(2), home);
    await again.waitFor(`session ${id} · 6 messages`);
    await again.waitFor('x + 2');
    await type(again, 'embed> ', '"again"', `'again'`);
    again.write('\x04');
    expect(await again.exited).toBe(0);
    expect((await again.visible()).at(-2)).toBe(`Saved ${id} (8 messages).`);
  });

  it('switches sessions with .load (the old one saved and released) and saves on SIGTERM', async () => {
    const home = tmpHome();
    const first = run(NODE_REPL, [], home);
    await first.waitFor(/· 0 messages ·/);
    const a = /session (session-\S+) ·/.exec(first.screen())![1]!;
    await type(first, 'embed> ', '"in a"', `'in a'`);
    await first.waitFor(/embed> $/);
    first.line('.exit');
    expect(await first.exited).toBe(0);

    const second = run(NODE_REPL, [], home);
    await second.waitFor(/· 0 messages ·/);
    const b = /session (session-\S+) ·/.exec(second.screen())![1]!;
    await type(second, 'embed> ', '"in b"', `'in b'`);
    const switched = await type(second, 'embed> ', `.load ${a}`, 'Switched');
    expect(switched).toContain(`Saved ${b} (2 messages). Switched to ${a}.`);
    await type(second, 'embed> ', '"back in a"', `'back in a'`);
    await second.waitFor(/embed> $/);
    second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect((await second.visible()).slice(-2)).toEqual([`Saved ${a} (4 messages).`, `Resume with: node examples/embed-node-repl.mjs ${a}`]);
    expect(storedMessages(home, a).map((m) => m.content)).toEqual(['"in a"', `'in a'`, '"back in a"', `'back in a'`]);
    expect(storedMessages(home, b).map((m) => m.content)).toEqual(['"in b"', `'in b'`]);
  });

  it('saves and releases the session when its terminal goes away', async () => {
    const home = tmpHome();
    const repl = run(NODE_REPL, [], home);
    await repl.waitFor(/· 0 messages ·/);
    const id = /session (session-\S+) ·/.exec(repl.screen())![1]!;
    await type(repl, 'embed> ', '6 * 7', '42');
    await repl.waitFor(/embed> $/);
    repl.destroy();
    await repl.exited;
    expect(storedMessages(home, id).map((m) => m.content)).toEqual(['6 * 7', '42']);
    const listed = execFileSync(process.execPath, [`${ROOT}/bin/chatkeep.js`, 'sessions', 'list', '--all', '--json'], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home }, encoding: 'utf8' });
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ id, status: 'closed', messageCount: 2 })]);
  });
});

describe('the readline example', () => {
  it('is printed in the docs as it is in examples/', () => {
    expect(readFileSync(LIBRARY_DOC, 'utf8')).toContain(`\`\`\`js\n${readFileSync(READLINE, 'utf8')}\`\`\`\n`);
  });

  it('answers its own lines, runs the slash commands with "did you mean", and prints its way back on /quit', async () => {
    const home = tmpHome();
    const chat = run(READLINE, [], home);
    await chat.waitFor(/· 0 messages ·/);
    const id = /session (session-\S+) ·/.exec(chat.screen())![1]!;
    expect(await type(chat, 'you> ', 'hello', 'HELLO!')).toContain('HELLO!');
    expect(await type(chat, 'you> ', '/sesions', 'Did you mean')).toContain('Unknown command /sesions. Type /help. Did you mean /sessions?');
    expect(await type(chat, 'you> ', '/title greetings', 'Renamed')).toContain(`Renamed ${id} to "greetings".`);
    await chat.waitFor(/you> $/);
    chat.line('/quit');
    expect(await chat.exited).toBe(0);
    expect((await chat.visible()).slice(-2)).toEqual([`Saved ${id} (2 messages).`, `Resume with: node examples/embed-readline.mjs ${id}`]);
    expect(storedMessages(home, id)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'HELLO!' },
    ]);
  });
  // The terminal goes away first (the pty closed: reads fail with EIO), the SIGHUP after it: the
  // input's 'error' must be the hang-up it is, not an unhandled error that ends the host unsaved.
  it('saves and releases the session when its terminal goes away', async () => {
    const home = tmpHome();
    const chat = run(READLINE, [], home);
    await chat.waitFor(/· 0 messages ·/);
    const id = /session (session-\S+) ·/.exec(chat.screen())![1]!;
    await type(chat, 'you> ', 'hello', 'HELLO!');
    await chat.waitFor(/you> $/);
    chat.destroy();
    // The host handed its signals over: it ends cleanly, not aborted by Node's exit on the dead terminal.
    expect(await chat.exited).toBe(0);
    expect(storedMessages(home, id).map((m) => m.content)).toEqual(['hello', 'HELLO!']);
    const listed = execFileSync(process.execPath, [`${ROOT}/bin/chatkeep.js`, 'sessions', 'list', '--all', '--json'], { cwd: ROOT, env: { ...process.env, CHATKEEP_HOME: home }, encoding: 'utf8' });
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ id, status: 'closed', messageCount: 2 })]);
  });
});
