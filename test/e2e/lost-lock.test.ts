import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPiped, startAtPrompt } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

const STALE_MS = 2000;
const STALE = { CHATKEEP_LOCK_STALE_MS: String(STALE_MS) };

interface Shown {
  messages: string[];
  parentId?: string;
  forkPoint?: number;
}

async function show(id: string, where: { home: string; cwd: string }): Promise<Shown> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', where);
  expect(shown.code, shown.stderr).toBe(0);
  const json = JSON.parse(shown.stdout) as { messages: { content: string }[] };
  const snapshot = JSON.parse(readFileSync(join(sessionDir(where.home, id)!, 'session.json'), 'utf8')) as {
    json: { parentId?: string; forkPoint?: number };
  };
  const { parentId, forkPoint } = snapshot.json;
  return { messages: json.messages.map((m) => m.content), ...(parentId !== undefined ? { parentId, forkPoint } : {}) };
}

/** Resolves once a piped child's stdout contains `text`. */
function stdoutOf(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(text)) resolve();
    });
    child.on('close', () => reject(new Error(`ended before printing ${text}: ${out}`)));
  });
}

/**
 * A REPL with one exchange, frozen past the stale time while a process on another host takes
 * its session and types a line there; then thawed.
 */
async function lostToOtherHost() {
  const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
  const { run, id } = await startAtPrompt([], { ...where, env: STALE });
  await run.say('first words', 'Echo: first words (read 1 message)');
  const thaw = await freeze(run.pid);
  const other = spawnPiped(['--session-id', id], { ...where, env: STALE, host: 'other-host' });
  other.child.stdin.write('typed on the other host\n');
  await stdoutOf(other.child, 'Echo: typed on the other host');
  thaw();
  return { where, run, id, other };
}

/** Freezes a process for three stale times, as a laptop lid or `kill -STOP` would. */
async function freeze(pid: number): Promise<() => void> {
  process.kill(pid, 'SIGSTOP');
  await sleep(3 * STALE_MS);
  return () => process.kill(pid, 'SIGCONT');
}

describe('a holder that stops answering', () => {
  it('keeps its session against this host while its pid lives, whatever the lock says', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { run, id } = await startAtPrompt([], { ...where, env: STALE });
    await run.say('first words', 'Echo: first words (read 1 message)');
    const thaw = await freeze(run.pid);
    const second = await runPiped(['--session-id', id], 'typed elsewhere\n/quit\n', { ...where, env: STALE });
    thaw();
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toContain(`Session ${id} is in use by process ${run.pid} on `);
    await run.say('after the thaw', 'Echo: after the thaw (read 3 messages)');
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (4 messages).`);
    expect((await show(id, where)).messages).toHaveLength(4);
  }, 60_000);

  it('loses it to another host after the stale time: what is typed next goes to a fork, and no false Saved', async () => {
    const { where, run, id, other } = await lostToOtherHost();
    await run.say('typed here after the loss', 'Echo: typed here after the loss (read 3 messages)');
    const forkId = /new session (\S+), a fork of/.exec(run.screen())?.[1];
    expect(run.screen()).toContain(`Session ${id} is held by process ${other.child.pid} on other-host now`);
    expect(forkId).toBeDefined();
    expect(await run.quit()).toBe(0);
    expect(run.screen()).not.toContain(`Saved ${id}`);
    expect(run.screen()).toContain(`Saved ${forkId} (4 messages).`);
    expect(run.screen()).toContain(`Resume with: chatkeep --session-id ${forkId}`);

    other.child.stdin.end('/quit\n');
    const ended = await other.result;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toContain(`Saved ${id} (4 messages).`);
    expect((await show(id, where)).messages).toEqual([
      'first words',
      'Echo: first words (read 1 message)',
      'typed on the other host',
      'Echo: typed on the other host (read 3 messages)',
    ]);
    expect(await show(forkId!, where)).toEqual({
      messages: ['first words', 'Echo: first words (read 1 message)', 'typed here after the loss', 'Echo: typed here after the loss (read 3 messages)'],
      parentId: id,
      forkPoint: 2,
    });
  }, 60_000);

  it('takes the session back when the other host let it go unchanged', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { run, id } = await startAtPrompt([], { ...where, env: STALE });
    await run.say('first words', 'Echo: first words (read 1 message)');
    const thaw = await freeze(run.pid);
    const other = await runPiped(['--session-id', id], '/quit\n', { ...where, env: STALE, host: 'other-host' });
    expect(other.code, other.stderr).toBe(0);
    thaw();
    await run.say('carry on', 'Echo: carry on (read 3 messages)');
    expect(run.screen()).toContain(`Session ${id} is held again (nothing was written to it meanwhile)`);
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (4 messages).`);
    expect((await show(id, where)).messages).toHaveLength(4);
    expect(existsSync(join(sessionDir(where.home, id)!, 'lock.owner.json'))).toBe(false);
  }, 60_000);

  it('/quit after losing the session says where everything is, without Saved', async () => {
    const { where, run, id, other } = await lostToOtherHost();
    expect(await run.quit(), run.screen()).toBe(0);
    expect(run.screen()).not.toContain('Saved');
    expect(run.screen()).toContain(`Session ${id} is held by process ${other.child.pid} on other-host now; it has all 2 messages shown here.`);
    other.child.stdin.end('/quit\n');
    const ended = await other.result;
    expect(ended.code, ended.stderr).toBe(0);
  }, 60_000);
});
