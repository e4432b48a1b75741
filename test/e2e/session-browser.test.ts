/**
 * The session browser (issue 20 item 1), driven as a person does: the real program in a
 * pseudo-terminal, what the terminal shows read back from a terminal emulator.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { idAt, manySessions, openProject } from '../../bench/fixtures.js';
import { runPiped, spawnPty, startAtPrompt, type PtyRun } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';

/** A word planted in one old session only. */
const RARE = 'wombat';
/** Sessions made; the one holding RARE is the 57th most recent. */
const COUNT = 60;
const OLD = 3;

/** A home with COUNT sessions in one project (written directly, as the benchmarks do), RARE in session OLD. */
async function manyInProject(): Promise<{ home: string; cwd: string; old: string }> {
  const home = tmpHome();
  const cwd = join(tmpHome('chatkeep-project-'), 'work');
  const { manager, template } = await openProject(home, cwd);
  await manySessions(manager, template, COUNT, (i, messages) => {
    if (i === OLD) messages[1]!.content = `${messages[1]!.content} and a ${RARE} appeared`;
  });
  await manager.close();
  return { home, cwd, old: idAt(OLD * 60) };
}

/** The screen as the terminal shows it now, one string. */
async function shown(run: PtyRun): Promise<string> {
  return (await run.visible()).join('\n');
}

/** Waits until the visible screen matches `what`. */
async function until(run: PtyRun, what: string | RegExp, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const screen = await shown(run);
    if (typeof what === 'string' ? screen.includes(what) : what.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(what)}. Screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('session browser', () => {
  it('-r: a word from an old session (beyond the 50 most recent) finds it; Enter resumes it', async () => {
    const where = await manyInProject();
    const run = spawnPty(['-r'], where);
    await until(run, 'Resume which session?');
    const first = await until(run, /· 61 of 61/);
    expect(first).not.toContain(where.old);
    run.write(RARE);
    const found = await until(run, /· 1 of 61/);
    expect(found).toContain(`› ${where.old}`);
    run.write('\r');
    await run.waitFor(`Resumed session ${where.old}`);
    expect(await run.quit()).toBe(0);
  });
});

/** Makes a finished session with one exchange, through the real program; resolves to its ID. */
async function madeSession(where: { home: string; cwd: string }, text: string): Promise<string> {
  const made = await runPiped([], `${text}\n/quit\n`, where);
  expect(made.code).toBe(0);
  return /Resume with: .*--session-id (\S+)/.exec(made.stderr)![1]!;
}

describe('session browser: leaving changes nothing', () => {
  const KEYS: [string, string][] = [
    ['Esc', '\x1b'],
    ['Ctrl-C', '\x03'],
    ['Ctrl-D', '\x04'],
    ['q', 'q'],
  ];
  it('-r: Esc, Ctrl-C, Ctrl-D and q (on an empty query) leave the data directory byte-identical, after typing, moving, Tab and filters', async () => {
    const where = await manyInProject();
    // The listing's and the search's indexes are caches a first reading writes; the listing records
    // the sessions directory's time only once it is 2 s old (index-store.ts). A browser that only
    // reads must leave them as they are after that.
    await sleep(2_100);
    expect((await runPiped(['sessions', 'list'], '', where)).code).toBe(0);
    expect((await runPiped(['sessions', 'search', 'journal'], '', where)).code).toBe(0);
    const before = treeDigest(where.home);
    for (const [name, key] of KEYS) {
      const run = spawnPty(['-r'], where);
      await until(run, '· 61 of 61');
      run.write(RARE);
      await until(run, '· 1 of 61');
      run.write('\x15'); // Ctrl-U: the query cleared
      await until(run, '· 61 of 61');
      run.write('\x1b[B\x1b[B\x1b[6~\t');
      await until(run, 'every project');
      run.write('\x14'); // Ctrl-T: status filter
      await until(run, 'Filters: status open');
      if (key === '\x1b') {
        run.write('x');
        await until(run, '· 0 of 61');
        run.write('\x7f');
        await until(run, '· 0 of 61'); // still filtered by status open
      }
      run.write(key);
      expect(await run.exited, `${name} leaves`).toBe(0);
      expect(run.screen(), name).toContain('No session picked. Start a new one with: chatkeep');
      expect(treeDigest(where.home), `${name} changed nothing`).toEqual(before);
    }
  }, 90_000);
});
