/**
 * Which project a working directory is, across machines (docs/design.md §3): the normalized `origin`
 * remote when the directory is in a git work tree that has one, else `<host>:<real path>`.
 * `.git/config` is read as a file (no git process), as `src/session/git.ts` reads HEAD.
 */
import { readFile, realpath } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { commonDir, findGitDir } from '../../git/read-git.js';
import type { ProjectInfo } from '../../session/api/data.js';
import { originFromConfig, remoteKey } from './remote-key.js';

/** The project of `cwd`: its key and its real path on this machine. */
export async function projectOf(cwd: string, host = hostname()): Promise<ProjectInfo> {
  const path = await realpath(cwd).catch(() => resolve(cwd));
  const origin = await originUrl(path).catch(() => undefined);
  const key = (origin && remoteKey(origin)) ?? `${host}:${path}`;
  return projectInfo(key, path);
}

/**
 * A project as the session model sees it. The seam gives `ProjectInfo` a store-neutral `key`
 * (replacing the file store's `slug` and `dir`); built here only, so that change lands in one place.
 */
export function projectInfo(key: string, path: string): ProjectInfo {
  const info = { key, path, slug: key, dir: '' };
  return info;
}

/** The key of a project (see `projectInfo`). */
export function keyOf(project: ProjectInfo): string {
  return (project as ProjectInfo & { key?: string }).key ?? project.path;
}

/** The `url` of `[remote "origin"]` in the repository's config (a linked worktree's is the main repository's). */
async function originUrl(dir: string): Promise<string | undefined> {
  const found = await findGitDir(dir);
  if (!found) return undefined;
  const text = await readFile(join(await commonDir(found.gitDir), 'config'), 'utf8');
  return originFromConfig(text);
}
