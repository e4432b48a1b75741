import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { baseIdFor, errno, isValidId } from '../../session/ids.js';

/** The session IDs in a `sessions/` directory (other entries ignored; a missing directory holds none). */
export async function sessionIdsIn(sessionsDir: string): Promise<string[]> {
  return (await readdir(sessionsDir).catch(() => [] as string[])).filter(isValidId);
}

/**
 * Reserves a never-issued ID and creates its session directory (0700).
 * The reservation is an exclusive file in `<home>/ids/`, kept forever (also when the session
 * goes to trash), so an ID is unique across projects and never reissued; the session
 * directory itself is then created with an exclusive `mkdir`.
 */
export async function reserveId(
  idsDir: string,
  sessionsDir: string,
  now: Date,
): Promise<{ id: string; dir: string }> {
  const base = await baseIdFor(now);
  for (let n = 1; n < 10_000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    // Taken in the registry, or its directory exists though the registry lost it (deleted by hand).
    const dir = await claimId(idsDir, sessionsDir, id);
    if (dir !== undefined) return { id, dir };
  }
  throw new Error(`Could not find a free session ID after ${base}`);
}

/**
 * Claims exactly `id` (an ID a program chooses, `create({ id })`): its registry entry, then its
 * session directory. Undefined when the ID was ever issued or its directory exists.
 */
export async function claimId(idsDir: string, sessionsDir: string, id: string): Promise<string | undefined> {
  await mkdir(idsDir, { recursive: true, mode: 0o700 });
  await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
  if (!(await createExclusive(join(idsDir, id)))) return undefined;
  const dir = join(sessionsDir, id);
  try {
    await mkdir(dir, { mode: 0o700 });
    return dir;
  } catch (err) {
    if (errno(err) === 'EEXIST') return undefined;
    throw err;
  }
}

async function createExclusive(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    await handle.close();
    return true;
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
}

