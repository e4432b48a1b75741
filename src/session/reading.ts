import { stat } from 'node:fs/promises';
import type { SessionProblem, SessionReading, SessionStatus } from './types.js';
import { FutureSchemaError } from './errors.js';
import type { IndexRow } from './index-row.js';
import { rowFromSnapshot } from './index-row.js';
import { loadSession, loadSessionStable } from '../store/file/load.js';
import { dateFromId } from './blank.js';
import type { LockState } from '../store/file/lock.js';
import { inspectLock } from '../store/file/lock.js';

/**
 * The status files say a session has (DESIGN §3–4): `open` while a live process holds its
 * lock; `interrupted` when left open, or with a dead lock or unsaved journal lines; else closed.
 */
export function statusFrom(savedStatus: SessionStatus | undefined, lock: LockState, journalPending: boolean): SessionStatus {
  if (lock.state === 'held') return 'open';
  if (lock.state === 'dead' || savedStatus === 'open' || savedStatus === 'interrupted' || journalPending) return 'interrupted';
  return savedStatus ?? 'interrupted';
}

/** One reading of a session's files, as `inspect` gives it and as its index row records it. */
export interface FilesReading {
  reading: SessionReading;
  row: IndexRow;
  /** Why nothing could be read (a newer version, an I/O error), for callers that refuse then. */
  error?: unknown;
}

/**
 * The one interpreter of a session's files (snapshot + journal + lock); reads, never writes.
 * Listings (`rowFromFiles`) and `show` (`inspect`) both come from here, so they agree on the
 * status, the message count and what is wrong. `stable`: read again if a holder saved meanwhile.
 */
export async function readSessionFiles(
  dir: string,
  id: string,
  projectPath: string,
  options: { staleMs: number; now: Date; stable: boolean },
): Promise<FilesReading> {
  const lock = await inspectLock(dir, options.staleMs);
  try {
    const load = options.stable ? loadSessionStable : loadSession;
    const loaded = await load(dir, { id, projectPath, now: options.now, quarantine: false });
    const status = statusFrom(loaded.savedStatus, lock, loaded.replay.applied > 0);
    const problem: SessionProblem | undefined = loaded.damage.length > 0 ? { kind: 'damaged', detail: loaded.damage.join('; ') } : undefined;
    const withProblem = problem ? { problem } : {};
    return {
      reading: { id, project: projectPath, snapshot: loaded.snapshot, status, ...withProblem },
      row: { ...rowFromSnapshot(loaded.snapshot, status), ...withProblem },
    };
  } catch (error) {
    // A newer schema or unreadable files: listed with what is wrong, rather than hidden or shown empty.
    const problem: SessionProblem =
      error instanceof FutureSchemaError
        ? { kind: 'newer-version', detail: `schemaVersion ${error.found}; this chatkeep reads up to ${error.known}`, ...(error.writtenBy ? { needs: error.writtenBy } : {}) }
        : { kind: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
    const status: SessionStatus = lock.state === 'held' ? 'open' : 'closed';
    const created = (dateFromId(id) ?? (await stat(dir).then((s) => s.mtime, () => options.now))).getTime();
    const row: IndexRow = { id, title: null, createdAt: created, updatedAt: created, messageCount: 0, status, project: projectPath, journalSeq: 0, problem };
    return { reading: { id, project: projectPath, status, problem }, row, error };
  }
}
