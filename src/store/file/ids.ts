import { closeSync, linkSync, openSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { baseIdFor, isValidId } from '../../session/api/ids.js';
import { errno } from '../../util/errno.js';
import { FILE_MODE } from './atomic-write.js';

/** The session IDs in a `sessions/` directory (other entries ignored; a missing directory holds none). */
export async function sessionIdsIn(sessionsDir: string): Promise<string[]> {
  return (await readdir(sessionsDir).catch(() => [] as string[])).filter(isValidId);
}

/**
 * Reserves a never-issued ID and creates its session directory (0700).
 * The reservation is an exclusive entry in `<home>/ids/` (`issueId`), kept forever (also when
 * the session goes to trash), so an ID is unique across projects and never reissued; the
 * session directory itself is then created with an exclusive `mkdir`.
 */
export async function reserveId(
  idsDir: string,
  sessionsDir: string,
  now: Date,
): Promise<{ id: string; dir: string }> {
  const base = baseIdFor(now);
  await makeDirs(idsDir, sessionsDir);
  for (let n = 1; n < 10_000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    // Taken in the registry, or its directory exists though the registry lost it (deleted by hand).
    const dir = await claimIn(idsDir, sessionsDir, id);
    if (dir !== undefined) return { id, dir };
  }
  throw new Error(`Could not find a free session ID after ${base}`);
}

/**
 * Claims exactly `id` (an ID a program chooses, `create({ id })`): its registry entry, then its
 * session directory. Undefined when the ID was ever issued or its directory exists.
 */
export async function claimId(idsDir: string, sessionsDir: string, id: string): Promise<string | undefined> {
  await makeDirs(idsDir, sessionsDir);
  return claimIn(idsDir, sessionsDir, id);
}

async function makeDirs(idsDir: string, sessionsDir: string): Promise<void> {
  await mkdir(idsDir, { recursive: true, mode: 0o700 });
  await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
}

/** `claimId` once both directories are there. */
async function claimIn(idsDir: string, sessionsDir: string, id: string): Promise<string | undefined> {
  if (!issueId(idsDir, id)) return undefined;
  const dir = join(sessionsDir, id);
  try {
    await mkdir(dir, { mode: 0o700 });
    return dir;
  } catch (err) {
    if (errno(err) === 'EEXIST') return undefined;
    throw err;
  }
}

/**
 * Records `id` as issued: `ids/<id>` made exclusively, true when this call made it, false when
 * it was there. Each entry is a hard link to one empty file (`ids/.issued`, then `.issued-2`…
 * when a file system's link limit is reached): a name in a directory, where a file of its own
 * cost a new inode, which on ext4 took ~0.2 ms each (as long as writing a 74 KB snapshot) and
 * was a quarter of what an import of many sessions spent in the kernel. Where hard links are
 * not to be had, an empty file each. Only the names are ever read.
 */
export function issueId(idsDir: string, id: string): boolean {
  const entry = join(idsDir, id);
  for (;;) {
    const anchor = join(idsDir, anchors.get(idsDir) ?? ANCHOR);
    try {
      linkSync(anchor, entry);
      return true;
    } catch (err) {
      const code = errno(err);
      if (code === 'EEXIST') return false;
      if (code === 'ENOENT') {
        // The anchor is not there yet (or was removed by hand): made, then linked again. The
        // entry's own ENOENT (no ids/ directory) is the caller's to prevent, and is thrown.
        if (!touch(anchor, 'a', 'ENOENT')) throw err;
      } else if (code === 'EMLINK') {
        const next = (Number(/-(\d+)$/.exec(anchor)?.[1] ?? 1) + 1).toString();
        anchors.set(idsDir, `${ANCHOR}-${next}`);
      } else if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
        return touch(entry, 'wx', 'EEXIST');
      } else throw err;
    }
  }
}

const ANCHOR = '.issued';
/** The anchor linked to in each `ids/` directory (a later one once the first is full). */
const anchors = new Map<string, string>();

/**
 * Opens and closes `path` with `flags` (`wx`: made only if missing; `a`: made unless there):
 * true when that went, false when it failed with `tolerated`; any other failure is thrown.
 */
function touch(path: string, flags: 'wx' | 'a', tolerated: string): boolean {
  try {
    closeSync(openSync(path, flags, FILE_MODE));
    return true;
  } catch (err) {
    if (errno(err) === tolerated) return false;
    throw err;
  }
}
