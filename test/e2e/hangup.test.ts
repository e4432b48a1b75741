import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { bannerId, sessionDir } from '../helpers/session-files.js';
import { runPiped, spawnPty } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { startInTmux } from '../helpers/tmux.js';

interface OnDisk {
  status: string;
  messages: { role: string; content: string; interrupted?: boolean }[];
}

/** The snapshot as written (not replayed from the journal): what a hang-up must have saved. */
function snapshotOf(home: string, id: string): OnDisk {
  const dir = sessionDir(home, id)!;
  const file = join(dir, 'session.json');
  expect(existsSync(file), `${file} written`).toBe(true);
  return (JSON.parse(readFileSync(file, 'utf8')) as { json: OnDisk }).json;
}

/** Nothing of the lock is left: no owner file, no lock directory, no guard. */
function lockFilesOf(home: string, id: string): string[] {
  return readdirSync(sessionDir(home, id)!).filter((name) => name.startsWith('lock'));
}

/** A clean exit: code 0, and no crash or assertion on stderr. */
function expectCleanExit(exit: { code: number; stderr: string }): void {
  expect(exit.stderr).not.toMatch(/Error|Assertion|EIO/);
  expect(exit.code, exit.stderr).toBe(0);
}

describe('closing the terminal window', () => {
  it('at the prompt: saves, releases the lock, exits 0, and prints the exit lines where they can still be read', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const run = startInTmux([], where);
    const id = bannerId(await run.waitFor('Type a message'));
    run.type('first words', true);
    await run.waitFor('Echo: first words (read 1 message)');
    run.close();
    const exit = await run.exited();
    expectCleanExit(exit);
    // The terminal is gone; stderr (a file here) still takes the exit lines.
    expect(exit.stderr).toContain(`Saved ${id} (2 messages).`);
    // Colour follows each stream's own terminal: the file stderr went to gets no escape codes.
    expect(exit.stderr).not.toContain('\x1b[');
    const saved = snapshotOf(where.home, id);
    expect(saved.status).toBe('closed');
    expect(saved.messages.map((m) => m.content)).toEqual(['first words', 'Echo: first words (read 1 message)']);
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });

  it('mid-reply: keeps every word shown, marked interrupted', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const run = startInTmux([], { ...where, env: { CHATKEEP_ECHO_DELAY_MS: '300' } });
    const id = bannerId(await run.waitFor('Type a message'));
    run.type('one two three four five six seven eight nine ten', true);
    const shown = await run.waitFor(/Echo: one two three/);
    run.close();
    expectCleanExit(await run.exited());
    const saved = snapshotOf(where.home, id);
    expect(saved.messages, JSON.stringify(saved.messages)).toHaveLength(2);
    const reply = saved.messages[1]!;
    expect(reply.interrupted, JSON.stringify(reply)).toBe(true);
    const visible = /Echo: [^\n]*/.exec(shown)![0].trim();
    expect(reply.content, `shown: ${visible}`).toContain(visible);
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });

  it('inside the /load session browser: saves and exits 0', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    expect((await runPiped([], 'an older conversation\n/quit\n', where)).code).toBe(0);
    const run = startInTmux([], where);
    const id = bannerId(await run.waitFor('Type a message'));
    run.type('first words', true);
    await run.waitFor('Echo: first words (read 1 message)');
    run.type('/load', true);
    await run.waitFor('Load which session?');
    run.close();
    expectCleanExit(await run.exited());
    expect(snapshotOf(where.home, id).messages).toHaveLength(2);
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });

  it('mid-typing, with the terminal taken away under the process (pty closed, then SIGHUP)', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const run = spawnPty([], where);
    const id = bannerId(await run.waitFor('Type a message'));
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.write('half a line');
    await run.waitFor('› half a line');
    run.destroy();
    expect(await run.exited).toBe(0);
    const saved = snapshotOf(where.home, id);
    expect(saved.status).toBe('closed');
    expect(saved.messages).toHaveLength(2);
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });

  it('with the terminal ending only as it exits (another process held it open): exits 0, saved', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const leaving = join(where.home, 'leaving');
    const preload = fileURLToPath(new URL('../fixtures/preload/terminal-ends-late.cjs', import.meta.url));
    const run = spawnPty([], { ...where, env: { NODE_OPTIONS: `--require ${preload}`, CHATKEEP_TEST_LEAVING: leaving } });
    const id = bannerId(await run.waitFor('Type a message'));
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    const release = run.holdElsewhere();
    run.destroy();
    // The terminal still answers while chatkeep saves and runs its exit handlers; then it ends.
    try {
      await eventually(async () => expect(existsSync(leaving), 'chatkeep reached its last exit handler').toBe(true));
    } finally {
      release();
    }
    expect(await run.exited).toBe(0);
    expect(snapshotOf(where.home, id).status).toBe('closed');
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });

  it('with SIGHUPs still arriving while it exits (a terminal signals after closing): not killed by one, exits 0', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const run = spawnPty([], where);
    const id = bannerId(await run.waitFor('Type a message'));
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.prompt();
    run.destroy();
    // One SIGHUP after another until the process is gone, so one lands in its last moments
    // however fast it leaves (a SIGHUP with Node's default action there ends it with 129).
    let exited = false;
    const code = run.exited.finally(() => (exited = true));
    while (!exited) {
      run.kill('SIGHUP');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await code).toBe(0);
    expect(snapshotOf(where.home, id).status).toBe('closed');
    expect(lockFilesOf(where.home, id)).toEqual([]);
  });
});
