/**
 * Writing an imported session into the data directory, on today's file layout. With the store
 * seam this is: `reserveExactId` (below, a store method) or `reserveId`, `lock`,
 * `writeSnapshot`, `recordRow`, release. The snapshot arrives checked
 * (`src/export/import-check.ts`); `importedState` gives it its ID, project and redaction.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AmbiguousIdError, UnknownSessionError } from './errors.js';
import { assertValidId, createExclusive, errno, reserveId } from './ids.js';
import { importedState } from './imported-state.js';
import { updateIndexRow } from './index-store.js';
import { rowFromSnapshot } from './index-row.js';
import { layout } from './layout.js';
import type { LockOptions } from './lock.js';
import { acquireLock } from './lock.js';
import { writeMeta } from './meta-file.js';
import { locate } from './resolve.js';
import { fileSnapshots } from './snapshot-store.js';
import type { ImportResult, ProjectInfo, SessionSnapshot } from './types.js';

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

/** `SessionManager.importSession` on the file layout: see there. Nothing that exists is overwritten. */
export async function importSession(snapshot: SessionSnapshot, target: ImportTarget): Promise<ImportResult> {
  const wanted = assertValidId(snapshot.id);
  const { home, project } = target;
  const dir = (id: string): string => join(layout.sessions(project.dir), id);
  const id = (await reserveExactId(home, project, wanted)) ? wanted : (await reserveId(layout.ids(home), layout.sessions(project.dir), target.now())).id;
  const state = importedState(snapshot, { id, project, redact: target.redact, toolVersion: target.toolVersion });
  const lock = await acquireLock(id, dir(id), target.lock);
  try {
    await fileSnapshots(dir(id)).write(state);
    // Both are caches (a listing rebuilds them from the snapshot): a failure only slows it.
    const row = rowFromSnapshot(state, 'closed');
    await Promise.all([writeMeta(dir(id), row), updateIndexRow(project.dir, row)]).catch(() => undefined);
  } finally {
    await lock.release();
  }
  return { id, ...(id !== wanted ? { importedFrom: wanted } : {}) };
}

/**
 * Reserves exactly `id` in `project` (an import keeping its ID) and creates its directory;
 * false when the ID was ever issued in this data directory or a session directory has it.
 */
export async function reserveExactId(home: string, project: ProjectInfo, id: string): Promise<boolean> {
  // A registry that lost the ID (removed by hand) must not let a directory of that name be reused.
  const found = await locate(home, project, id).catch((err: unknown) => {
    if (err instanceof UnknownSessionError || err instanceof AmbiguousIdError) return undefined;
    throw err;
  });
  if (found?.id === id) return false;
  await mkdir(layout.ids(home), { recursive: true, mode: 0o700 });
  await mkdir(layout.sessions(project.dir), { recursive: true, mode: 0o700 });
  if (!(await createExclusive(join(layout.ids(home), id)))) return false;
  try {
    await mkdir(join(layout.sessions(project.dir), id), { mode: 0o700 });
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
  return true;
}
