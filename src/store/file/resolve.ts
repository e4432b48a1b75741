import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileProject } from './project.js';
import { AmbiguousIdError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import { errno } from '../../util/errno.js';
import { sessionIdsIn } from './ids.js';
import { layout } from './layout.js';
import { readProjectPath } from './project.js';

/** A session's directory, and the project it is in. */
export interface SessionDir {
  id: string;
  dir: string;
  project: FileProject;
}

/** Every project directory under the home, this one first. */
export async function projectsOf(home: string, current: FileProject): Promise<FileProject[]> {
  const root = layout.projects(home);
  const names = await readdir(root).catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return [] as string[];
    throw err;
  });
  const others: FileProject[] = [];
  for (const slug of names.sort()) {
    if (slug === current.key || slug.startsWith('.')) continue;
    const dir = join(root, slug);
    const path = await readProjectPath(dir);
    if (path !== undefined) others.push({ key: slug, path, dir });
  }
  return [current, ...others];
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Finds a session by ID or unique ID prefix in any project (docs/design.md §3). The manager validated
 * `wanted` before it came here (a path is built from it).
 */
export async function locate(home: string, current: FileProject, wanted: string): Promise<SessionDir> {
  // This project's first, before the others are listed (a readdir and every other project's
  // project.json): nearly every session read, resumed or previewed is one of its own.
  const here = join(layout.sessions(current.dir), wanted);
  if (await isDir(here)) return { id: wanted, dir: here, project: current };
  const projects = await projectsOf(home, current);
  for (const project of projects.slice(1)) {
    const dir = join(layout.sessions(project.dir), wanted);
    if (await isDir(dir)) return { id: wanted, dir, project };
  }
  // A trashed session is not found, but the person typing its ID is told where it went: before
  // prefixes are tried, so a trashed `X` is not taken for a prefix of a live `X-2`.
  if (await isDir(join(layout.trash(home), wanted, 'session'))) throw new TrashedSessionError(wanted);
  const matches: SessionDir[] = [];
  for (const project of projects) {
    for (const name of await sessionIdsIn(layout.sessions(project.dir))) {
      if (name.startsWith(wanted)) matches.push({ id: name, dir: join(layout.sessions(project.dir), name), project });
    }
  }
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) throw new AmbiguousIdError(wanted, matches.map((m) => m.id).sort());
  throw new UnknownSessionError(wanted);
}
