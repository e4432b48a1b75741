import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, realpath, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ProjectInfo } from '../../session/api/data.js';

/** A project of the file store: its directory under `projects/` is `dir`. */
export interface FileProject extends ProjectInfo {
  dir: string;
}
import { DIR_MODE, FILE_MODE, fsyncDir } from './atomic-write.js';
import { errno } from '../../util/errno.js';
import { corruptName, layout } from './layout.js';

/** The readable directory name for a project path: separators (and anything unsafe) become `-`. */
export function slugFor(path: string): string {
  const slug = path.replace(/[^A-Za-z0-9._-]/g, '-');
  // Long paths keep their informative tail; the hash keeps them distinct.
  return slug.length <= 100 ? slug : `${slug.slice(-80)}-${shortHash(path)}`;
}

function shortHash(text: string, length = 8): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/**
 * Finds or creates the project directory for `cwd`. Paths whose slugs collide (`/tmp/a-b`
 * and `/tmp/a/b`) stay separate: `project.json` records the real path, and a clash takes a
 * short hash suffix.
 */
export async function openProject(home: string, cwd: string, now: Date): Promise<FileProject> {
  const path = await realPath(cwd);
  for (const slug of slugsFor(path)) {
    const dir = join(layout.projects(home), slug);
    if ((await claimProject(dir, path, now)) === path) return { key: slug, path, dir };
  }
  throw new Error(`Could not create a project directory for ${path} under ${layout.projects(home)}`);
}

/**
 * The project directory of `cwd` if one exists, else the one `openProject` would claim (the
 * first name nobody owns); creates nothing, so commands that only read write nothing.
 */
export async function findProject(home: string, cwd: string): Promise<FileProject> {
  const path = await realPath(cwd);
  const slugs = slugsFor(path);
  let free: string | undefined;
  for (const slug of slugs) {
    const dir = join(layout.projects(home), slug);
    const owner = await readProjectPath(dir);
    if (owner === path) return { key: slug, path, dir };
    if (owner === undefined) free ??= slug;
  }
  const slug = free ?? slugs[0]!;
  return { key: slug, path, dir: join(layout.projects(home), slug) };
}

function realPath(cwd: string): Promise<string> {
  return realpath(cwd).catch(() => resolve(cwd));
}

/** The directory names a project may have, in the order they are tried (a clash takes a hash suffix). */
function slugsFor(path: string): string[] {
  const base = slugFor(path);
  return [base, `${base}-${shortHash(path)}`, `${base}-${shortHash(path, 16)}`];
}

/** Reads a project's recorded path, or undefined when project.json is missing or damaged. */
export async function readProjectPath(projectDir: string): Promise<string | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(layout.projectFile(projectDir), 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { path?: unknown }).path === 'string') {
      return (parsed as { path: string }).path;
    }
  } catch {
    // missing or damaged: the caller decides
  }
  return undefined;
}

/** Returns the path that owns `dir` (claiming it for `path` if nobody does). */
async function claimProject(dir: string, path: string, now: Date): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const file = layout.projectFile(dir);
  for (let attempt = 0; attempt < 3; attempt++) {
    const owner = await readProjectPath(dir);
    if (owner !== undefined) return owner;
    try {
      await readFile(file);
      // Present but unreadable as a project: quarantine it, never overwrite.
      await rename(file, corruptName(file, now));
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
    }
    // link() is exclusive and atomic: of two racing processes exactly one writes project.json.
    const tmp = join(dirname(file), `.project.json.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    await writeFile(tmp, `${JSON.stringify({ format: 'chatkeep.project', path, createdAt: now.toISOString() }, null, 2)}\n`, {
      mode: FILE_MODE,
      flush: true,
    });
    try {
      await link(tmp, file);
      await fsyncDir(dir);
      return path;
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }
  return undefined;
}
