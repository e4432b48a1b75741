/**
 * Writing an imported session into the data directory (today's file layout; the store seam
 * takes this over as a store method). The snapshot arrives checked (`src/export/import-check.ts`);
 * here it gets its ID, is redacted, and is written under its lock like any snapshot.
 */
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AmbiguousIdError, UnknownSessionError } from './errors.js';
import { assertValidId, createExclusive, errno, reserveId } from './ids.js';
import { updateIndexRow } from './index-store.js';
import { rowFromSnapshot } from './index-row.js';
import { layout } from './layout.js';
import type { LockOptions } from './lock.js';
import { acquireLock } from './lock.js';
import { writeMeta } from './meta-file.js';
import { redactSnapshot } from './redact-snapshot.js';
import { locate } from './resolve.js';
import { fileSnapshots } from './snapshot-store.js';
import type { ProjectInfo, SessionSnapshot } from './types.js';

/** What the manager lends an import. */
export interface ImportTarget {
  home: string;
  /** The project the session joins (the manager's). */
  project: ProjectInfo;
  redact: (text: string) => string;
  toolVersion: string;
  now: () => Date;
  lock: LockOptions;
}

/**
 * Writes `snapshot` as a new session of `target.project`, closed. It keeps its ID unless that
 * ID was ever issued here (to any session, trashed ones included): then it gets a new one and
 * records the one it had as `importedFrom`. Nothing that exists is overwritten.
 */
export async function importSession(snapshot: SessionSnapshot, target: ImportTarget): Promise<{ id: string; importedFrom?: string }> {
  const wanted = assertValidId(snapshot.id);
  const { home, project } = target;
  const reserved =
    (await reserveExactId(home, project, wanted)) ?? (await reserveId(layout.ids(home), layout.sessions(project.dir), target.now()));
  const importedFrom = reserved.id === wanted ? snapshot.importedFrom : wanted;
  const state: SessionSnapshot = {
    ...redactSnapshot(snapshot, target.redact),
    id: reserved.id,
    project: project.path,
    status: 'closed',
    host: hostname(),
    pid: process.pid,
    toolVersion: target.toolVersion,
    journalSeq: 0,
    ...(importedFrom !== undefined ? { importedFrom } : {}),
  };
  delete state.savedBy;
  const lock = await acquireLock(reserved.id, reserved.dir, target.lock);
  try {
    await fileSnapshots(reserved.dir).write(state);
    // Both are caches (a listing rebuilds them from the snapshot): a failure only slows it.
    const row = rowFromSnapshot(state, 'closed');
    await Promise.all([writeMeta(reserved.dir, row), updateIndexRow(project.dir, row)]).catch(() => undefined);
  } finally {
    await lock.release();
  }
  return { id: reserved.id, ...(reserved.id !== wanted ? { importedFrom: wanted } : {}) };
}

/** Reserves exactly `id` in `project`, or undefined when it was ever issued here or a session directory has it. */
async function reserveExactId(home: string, project: ProjectInfo, id: string): Promise<{ id: string; dir: string } | undefined> {
  // A registry that lost the ID (removed by hand) must not let a directory of that name be reused.
  const found = await locate(home, project, id).catch((err: unknown) => {
    if (err instanceof UnknownSessionError || err instanceof AmbiguousIdError) return undefined;
    throw err;
  });
  if (found?.id === id) return undefined;
  await mkdir(layout.ids(home), { recursive: true, mode: 0o700 });
  await mkdir(layout.sessions(project.dir), { recursive: true, mode: 0o700 });
  if (!(await createExclusive(join(layout.ids(home), id)))) return undefined;
  const dir = join(layout.sessions(project.dir), id);
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if (errno(err) === 'EEXIST') return undefined;
    throw err;
  }
  return { id, dir };
}
