/**
 * The session browser (issue 20 item 1), driven as a person does: the real program in a
 * pseudo-terminal, what the terminal shows read back from a terminal emulator.
 */
import { join } from 'node:path';
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
