import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Runs git in `cwd` (test set-up only: chatkeep itself never runs git). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A repository on branch `main` with one commit. */
function repository(): string {
  const repo = tmpHome('chatkeep-repo-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'first');
  return repo;
}

async function chat(home: string, cwd: string, input = 'hello\n/quit\n'): Promise<string> {
  const result = await runPiped([], input, { home, cwd });
  expect(result.code).toBe(0);
  return /Saved (\S+) \(/.exec(result.stderr)![1]!;
}

async function showJson(home: string, cwd: string, id: string): Promise<Record<string, unknown>> {
  return JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd })).stdout) as Record<string, unknown>;
}

async function listJson(home: string, cwd: string, ...args: string[]): Promise<{ id: string; branch?: string }[]> {
  const result = await runPiped(['sessions', 'list', '--json', ...args], '', { home, cwd });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { id: string; branch?: string }[];
}

describe('git context', () => {
  it('records root, branch and HEAD at start and at resume, from a subdirectory, a linked worktree and packed refs', async () => {
    const home = tmpHome();
    const repo = repository();
    const sub = join(repo, 'src');
    mkdirSync(sub);
    const onMain = await chat(home, sub);
    expect((await showJson(home, sub, onMain)).git).toEqual({ root: repo, branch: 'main', head: git(repo, 'rev-parse', 'HEAD') });

    // A linked worktree (its .git is a file), with every ref packed (no loose ref files).
    const tree = join(tmpHome('chatkeep-tree-'), 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature/x', tree);
    git(tree, 'commit', '-q', '--allow-empty', '-m', 'second');
    git(repo, 'pack-refs', '--all');
    const onFeature = await chat(home, tree);
    expect((await showJson(home, tree, onFeature)).git).toEqual({ root: tree, branch: 'feature/x', head: git(tree, 'rev-parse', 'HEAD') });

    // Resumed after a checkout: the new branch and HEAD replace the old.
    git(repo, 'checkout', '-q', '--detach');
    const resumed = await runPiped(['--session-id', onMain], 'more\n/quit\n', { home, cwd: sub });
    expect(resumed.stderr).toContain(`project ${sub}, branch main)`);
    expect((await showJson(home, sub, onMain)).git).toEqual({ root: repo, branch: null, head: git(repo, 'rev-parse', 'HEAD') });
  });

  it('shows the branch in listings, filters on it, lists another project, and records nothing outside a work tree', async () => {
    const home = tmpHome();
    const repo = repository();
    const first = await chat(home, repo);
    git(repo, 'checkout', '-q', '-b', 'fix-login');
    const second = await chat(home, repo);
    const plain = tmpHome('chatkeep-plain-');
    const outside = await chat(home, plain);

    expect(await listJson(home, repo)).toEqual([
      expect.objectContaining({ id: second, branch: 'fix-login' }),
      expect.objectContaining({ id: first, branch: 'main' }),
    ]);
    expect((await listJson(home, repo, '--branch', 'main')).map((r) => r.id)).toEqual([first]);
    expect(await listJson(home, repo, '--branch', 'nope')).toEqual([]);
    const other = await listJson(home, repo, '--project', plain);
    expect(other.map((r) => r.id)).toEqual([outside]);
    expect(other[0]).not.toHaveProperty('branch');
    expect((await showJson(home, plain, outside)).git).toBeUndefined();
    // A relative path, from elsewhere, and a path nobody chatted in.
    expect((await listJson(home, plain, '--project', `../${repo.split('/').pop()}`)).map((r) => r.id)).toEqual([second, first]);
    const nowhere = await runPiped(['sessions', 'list', '--project', join(plain, 'absent')], '', { home, cwd: repo });
    expect(nowhere).toMatchObject({ code: 0, stdout: `No sessions in ${join(plain, 'absent')} yet (--all lists every project).\n` });
    const noBranch = await runPiped(['sessions', 'list', '--branch', 'nope'], '', { home, cwd: repo });
    expect(noBranch.stdout).toBe('No sessions in this project on branch nope yet (--all lists every project).\n');

    const text = await runPiped(['sessions', 'list'], '', { home, cwd: repo });
    expect(text.stdout).toMatch(new RegExp(`^  ${second}\\s+less than a minute ago\\s+2 messages · \\d+ tokens\\s+closed  fix-login\\s+hello\\n`));
    expect(text.stdout).toMatch(new RegExp(`\\n  ${first}\\s+less than a minute ago\\s+2 messages · \\d+ tokens\\s+closed  main\\s+hello\\n$`));

    // In the chat: /sessions shows it too, the current session's branch included.
    const { run, id } = await startAtPrompt([], { home, cwd: repo });
    await run.say('hi', 'Echo: hi');
    await run.say('/sessions', new RegExp(`\\* ${id}\\s+less than a minute ago\\s+2 messages · \\d+ tokens\\s+open\\s+fix-login\\s+hi`));
    expect(await run.quit()).toBe(0);
  });
});
