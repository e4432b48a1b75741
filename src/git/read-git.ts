/**
 * The git work tree a session is used in: its root, branch and HEAD commit, read straight from
 * the `.git` files (HEAD, loose refs, packed-refs, a linked worktree's `.git` file and its
 * `commondir`). Spawning git would cost tens of milliseconds and needs git installed; these
 * are a handful of small reads.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { GitContext } from '../session/api/data.js';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The git context of `cwd`, or undefined when it is not inside a git work tree (or it cannot be read). */
export async function readGitContext(cwd: string): Promise<GitContext | undefined> {
  try {
    const found = await findGitDir(resolve(cwd));
    if (!found) return undefined;
    const head = (await readFile(join(found.gitDir, 'HEAD'), 'utf8')).trim();
    const common = await commonDir(found.gitDir);
    if (SHA.test(head)) return { root: found.root, branch: null, head };
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
    return { root: found.root, branch, head: (await resolveRef(common, ref)) ?? null };
  } catch {
    // Unreadable or unexpected files: the session simply records no git context.
    return undefined;
  }
}

/** Walks up from `dir` to the first `.git`: a directory, or a file `gitdir: PATH` (linked worktrees, submodules). */
export async function findGitDir(dir: string): Promise<{ root: string; gitDir: string } | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return { root: at, gitDir: dotGit };
    if (info?.isFile()) {
      const target = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1]?.trim();
      return target ? { root: at, gitDir: resolve(at, target) } : undefined;
    }
    if (dirname(at) === at) return undefined;
  }
}

/** A linked worktree keeps its own HEAD; branches live in the main repository's directory (`commondir`). */
export async function commonDir(gitDir: string): Promise<string> {
  const pointer = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return pointer ? resolve(gitDir, pointer.trim()) : gitDir;
}

/** A ref's commit: its loose file, else its line in packed-refs; undefined for a branch with no commit yet. */
async function resolveRef(common: string, ref: string, depth = 0): Promise<string | undefined> {
  if (depth > 5 || ref.includes('..')) return undefined;
  const loose = (await readFile(join(common, ref), 'utf8').catch(() => undefined))?.trim();
  if (loose !== undefined) {
    if (SHA.test(loose)) return loose;
    const next = /^ref:\s*(\S+)$/.exec(loose)?.[1];
    return next ? resolveRef(common, next, depth + 1) : undefined;
  }
  const packed = await readFile(join(common, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.trim().split(/\s+/);
    if (name === ref && sha && SHA.test(sha)) return sha;
  }
  return undefined;
}
