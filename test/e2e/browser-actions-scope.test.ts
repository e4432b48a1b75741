/**
 * Each action of the session browser changes what it names and nothing else, also on another
 * project's session (Tab): a rename its title, and a fork, an export, a move to the trash and
 * back nothing of the session acted on. Driven in a pseudo-terminal, read back with
 * `sessions show --json`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, searchAnswered, spawnPty, type PtyRun, untilVisible } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Runs git in `cwd` (test set-up only). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A repository on `branch` with one commit. */
function repository(branch: string): string {
  const repo = tmpHome('chatkeep-repo-');
  git(repo, 'init', '-q', '-b', branch);
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'first');
  return repo;
}

const until = untilVisible;

type Shown = Record<string, unknown>;

async function show(home: string, cwd: string, id: string): Promise<Shown> {
  const result = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Shown;
}

/** What a session is, without when and how it was last written (a rename is a write). */
function content(shown: Shown): Shown {
  const { updatedAt: _u, savedBy: _s, ...rest } = shown;
  return rest;
}

/** Opens `sessions browse` in `cwd`, switches to every project and highlights `id`. */
async function browseTo(home: string, cwd: string, id: string): Promise<PtyRun> {
  const run = spawnPty(['sessions', 'browse'], { home, cwd });
  await until(run, 'Resume which session?');
  run.write('\t');
  await until(run, 'every project');
  run.write(id);
  // The search over the whole ID has answered (a prefix typed so far may have shown it already).
  await until(run, searchAnswered(id, `${id} `));
  return run;
}

describe('session browser: each action changes only what it names', () => {
  it('on another project’s session: rename sets the title only; fork, export, trash and restore change nothing of it', async () => {
    const home = tmpHome();
    const there = repository('main');
    const here = repository('elsewhere');
    const made = await runPiped([], 'the emu conversation\n/quit\n', { home, cwd: there });
    expect(made.code).toBe(0);
    const id = /Saved (\S+) \(/.exec(made.stderr)![1]!;
    const before = await show(home, there, id);
    expect(before.git).toEqual({ root: there, branch: 'main', head: git(there, 'rev-parse', 'HEAD') });

    const run = await browseTo(home, here, id);
    run.write('\x12');
    await until(run, 'Rename to');
    run.write('\x15Emu talk\r');
    await until(run, `Renamed ${id} to "Emu talk".`);
    // The listing is read again after a rename: the row shows the new title once it is.
    await until(run, new RegExp(`› ${id} .*Emu talk`));
    run.write('\x05');
    await until(run, 'Export to file');
    run.write('\x15emu.md\r');
    await until(run, `Exported ${id} (2 messages) as md to ${join(here, 'emu.md')}`);
    run.write('\x06');
    const fork = /Forked \S+ as (\S+) \(2 messages\)/.exec(await until(run, /Forked \S+ as \S+ \(2 messages\)/))![1]!;
    run.write('\x1b');
    expect(await run.exited).toBe(0);

    // Renamed: the title, and nothing else (its git work tree is still where it was used); the
    // fork is listed among its forks, as a listing of what came from it.
    const renamed = await show(home, there, id);
    expect(renamed.title).toBe('Emu talk');
    expect(content(renamed)).toEqual({ ...content(before), title: 'Emu talk', forks: [{ id: fork, forkPoint: 2 }] });
    expect(readFileSync(join(here, 'emu.md'), 'utf8')).toContain('the emu conversation');
    expect((await show(home, here, fork)).parentId).toBe(id);

    // To the trash and back: the session as it was.
    const trashing = await browseTo(home, here, id);
    trashing.write('\x18');
    await until(trashing, `Moved ${id} to the trash. Restore with:`);
    trashing.write('\x1b');
    expect(await trashing.exited).toBe(0);
    expect((await runPiped(['sessions', 'restore', id], '', { home, cwd: here })).code).toBe(0);
    expect(content(await show(home, there, id))).toEqual(content(renamed));
  }, 60_000);
});
