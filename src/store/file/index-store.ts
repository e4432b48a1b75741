import { existsSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { sessionIdsIn } from './ids.js';
import { withGuard } from './guard.js';
import { inspectLock } from './lock.js';
import { corruptName, layout } from './layout.js';
import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import { readMetaRowSync, writeMeta } from './meta-file.js';
import { snapshotStamp } from './snapshot-stamp.js';
import { readIndexHead } from './index-head.js';
import { freshLog, nextLog } from './index-log.js';
import { readIndex, recordRows, writeIndex } from './index-file.js';
import { applyJournalToRow, rowFromFiles, type RowReader } from './summary.js';

/**
 * `projects/<slug>/index.json`: the listing cache (docs/design.md §8). The session files stay the
 * truth. The index records the `sessions/` directory's mtime: a creation or removal changes
 * it, and only the difference is reconciled. Snapshot writers record their own row (index-file.ts).
 */
const MTIME_SETTLE_MS = 2_000;
/**
 * Runs `fn` holding the index's short lock: a pid-stamped guard (not proper-lockfile, whose
 * lock a killed holder leaves for its whole stale time), so a dead holder's lock is broken at
 * once instead of holding up the next start for seconds.
 */
async function withIndexLock<T>(projectDir: string, fn: () => Promise<T>): Promise<T> {
  return withGuard(`${layout.index(projectDir)}.lock`, fn, 5_000);
}

/** Synchronous, as a snapshot's stamp is (snapshot-stamp.ts): every listing and search starts with it. */
export function sessionsMtime(projectDir: string): number | undefined {
  return statSync(layout.sessions(projectDir), { throwIfNoEntry: false })?.mtimeMs;
}

/** Records a row written by a snapshot writer. A missing or damaged index is left for the next listing to rebuild. */
export async function updateIndexRow(projectDir: string, row: IndexRow): Promise<number> {
  return updateIndexRows(projectDir, [row]);
}

/** Records rows of several sessions at once (one lock, one write: a batch of imports). Resolves to the bytes written. */
export async function updateIndexRows(projectDir: string, changed: readonly IndexRow[]): Promise<number> {
  return withIndexLock(projectDir, () => recordRows(projectDir, changed));
}

/**
 * The project's rows, newest first, with live statuses. Reads one file in the common case;
 * reconciles or rebuilds (under the index lock) when the index is missing, stale or damaged.
 * With `newest`, at least the newest that many rows (all when fewer), read from the head of the
 * index when it is current; otherwise every row, as without. The first `shown` rows (those a
 * listing shows; with `newest`, at least that many) have their snapshot's stamp checked.
 */
export async function listProject(projectDir: string, projectPath: string, reader: RowReader, newest?: number, shown = newest ?? 0): Promise<IndexRow[]> {
  const mtime = sessionsMtime(projectDir);
  if (mtime === undefined) return [];
  const check = Math.max(shown, newest ?? 0);
  if (newest !== undefined) {
    const head = readIndexHead(layout.index(projectDir), newest, mtime);
    if (head) return refreshLive(projectDir, projectPath, head, reader, check);
  }
  const read = await readIndex(projectDir);
  let rows: IndexRow[];
  if (read.kind === 'ok' && read.index.sessionsMtimeMs === mtime) {
    rows = read.index.rows;
  } else if (read.kind === 'ok' && !isSettled(mtime) && (await sameSessions(projectDir, read.index.rows))) {
    // Changed moments ago (a session was just created here) but the index already has every
    // session: nothing to write; a later listing records the mtime once it has settled.
    rows = read.index.rows;
  } else if (read.kind === 'unreadable') {
    rows = await rebuildIndex(projectDir, projectPath, reader, false);
  } else {
    try {
      rows = await withIndexLock(projectDir, () => rebuildIndex(projectDir, projectPath, reader, true));
    } catch {
      // A read-only or full disk: list from the files anyway; the index waits for better days.
      rows = await rebuildIndex(projectDir, projectPath, reader, false);
    }
  }
  return refreshLive(projectDir, projectPath, rows, reader, check);
}

/** Reconciles the index with the sessions directory; with `write`, stores the result. */
async function rebuildIndex(projectDir: string, projectPath: string, reader: RowReader, write: boolean): Promise<IndexRow[]> {
  const read = await readIndex(projectDir);
  if (read.kind === 'damaged' && write) await rename(layout.index(projectDir), corruptName(layout.index(projectDir), new Date()));
  const before = read.kind === 'ok' ? read.index.rows : [];
  const seen = sessionsMtime(projectDir) ?? -1;
  const lines = new Map<IndexRow, Uint8Array>();
  const rows = await reconcile(projectDir, projectPath, before, reader, lines);
  // Until the mtime has settled, the index records -1 and the next listing looks again.
  if (write) {
    // The sessions added and removed are logged (a search reads them from the header); a new index starts a new log.
    const log = read.kind === 'ok' ? nextLog(read.index, difference(before, rows)) : freshLog();
    await writeIndex(projectDir, isSettled(seen) ? seen : -1, rows, log, read.kind === 'ok', lines);
  }
  return rows;
}

/** The IDs in one of `a` and `b` but not both. */
function difference(a: readonly IndexRow[], b: readonly IndexRow[]): string[] {
  const inA = new Set(a.map((r) => r.id));
  const inB = new Set(b.map((r) => r.id));
  return [...a.filter((r) => !inB.has(r.id)), ...b.filter((r) => !inA.has(r.id))].map((r) => r.id);
}

/** Directory mtimes are coarse (a few ms): one taken moments ago may not show a creation that follows. */
function isSettled(mtimeMs: number): boolean {
  return Date.now() - mtimeMs > MTIME_SETTLE_MS;
}

/** True when the sessions directory holds exactly the sessions the rows describe. */
async function sameSessions(projectDir: string, rows: readonly IndexRow[]): Promise<boolean> {
  const names = await sessionIdsIn(layout.sessions(projectDir));
  if (names.length !== rows.length) return false;
  const ids = new Set(rows.map((r) => r.id));
  return names.every((name) => ids.has(name));
}

/** Meta files read between two turns of the event loop while rebuilding (~2 ms of work). */
const META_BATCH = 200;

/**
 * Keeps rows whose directory exists, adds rows for directories the index lacks: from each
 * session's meta file (one small read; its line kept in `lines` for the index), else from its
 * snapshot and journal.
 */
async function reconcile(projectDir: string, projectPath: string, rows: IndexRow[], reader: RowReader, lines: Map<IndexRow, Uint8Array>): Promise<IndexRow[]> {
  const sessionsDir = layout.sessions(projectDir);
  const names = new Set(await sessionIdsIn(sessionsDir));
  const kept = rows.filter((r) => names.has(r.id));
  const known = new Set(kept.map((r) => r.id));
  const missing = [...names].filter((id) => !known.has(id));
  const unrecorded: string[] = [];
  for (let start = 0; start < missing.length; start += META_BATCH) {
    if (start > 0) await yieldToEventLoop();
    for (const id of missing.slice(start, start + META_BATCH)) {
      const meta = readMetaRowSync(layout.session(sessionsDir, id), id);
      if (!meta) unrecorded.push(id);
      else {
        kept.push(meta.row);
        if (meta.line) lines.set(meta.row, meta.line);
      }
    }
  }
  for (const id of unrecorded) kept.push(await rowFromFiles(layout.session(sessionsDir, id), id, projectPath, reader));
  return kept.sort(byUpdatedDesc);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Rows not known to be closed get their lock
 * checked (few of them): held → open, with the journal's news applied; no live holder →
 * interrupted, recomputed from the files once. Rows with a problem (damaged, newer version:
 * rare) are read again each time, so a repair shows. Of closed rows, the first `check` (the
 * ones shown) are trusted only while their snapshot has the stamp the row recorded: one stat
 * each; a row that is not shown is checked when it comes into view, or by `sessions doctor`.
 */
export async function refreshLive(projectDir: string, projectPath: string, rows: IndexRow[], reader: RowReader, check: number): Promise<IndexRow[]> {
  const sessionsDir = layout.sessions(projectDir);
  let changed: IndexRow[] | undefined;
  const out = rows.slice();
  for (let i = 0; i < out.length; i++) {
    const row = out[i];
    if (row.status === 'closed' && !row.problem) {
      if (i < check) {
        const stale = await staleRow(layout.session(sessionsDir, row.id), row, projectPath, reader);
        if (stale) {
          out[i] = stale;
          (changed ??= []).push(stale);
        }
      }
      continue;
    }
    const dir = layout.session(sessionsDir, row.id);
    const lock = await inspectLock(dir, reader.staleMs);
    if (row.problem) {
      const truth = await rowFromFiles(dir, row.id, projectPath, reader);
      out[i] = truth;
      if (JSON.stringify(truth) !== JSON.stringify(row)) (changed ??= []).push(truth);
    } else if (lock.state === 'held') {
      out[i] = { ...(await applyJournalToRow(row, dir, reader).catch(() => row)), status: 'open' };
    } else if (row.status === 'open') {
      const truth = await rowFromFiles(dir, row.id, projectPath, reader);
      out[i] = truth;
      (changed ??= []).push(truth);
    }
  }
  if (changed) {
    await updateIndexRows(projectDir, changed).catch(() => undefined);
    out.sort(byUpdatedDesc);
  }
  return out;
}

/**
 * The row as the files say, when the snapshot is no longer the one `row` was read from (put back
 * by hand, rewritten by another tool); undefined while its stamp still matches. A meta file
 * loses too: rewritten from the files, as `sessions doctor` does (docs/design.md §8).
 */
export async function staleRow(dir: string, row: IndexRow, projectPath: string, reader: RowReader): Promise<IndexRow | undefined> {
  if (row.snapshotStamp === snapshotStamp(dir)) return undefined;
  const truth = await rowFromFiles(dir, row.id, projectPath, reader).catch(() => undefined);
  if (!truth) return undefined;
  // Only a closed, sound reading describes the snapshot in place; any other is settled by its own
  // path. A meta file is replaced, never created: listing writes nothing into a session's
  // directory that was not there (an older build's session stays byte for byte as it was).
  if (!truth.problem && truth.status === 'closed' && existsSync(layout.meta(dir))) await writeMeta(dir, truth).catch(() => undefined);
  return truth;
}

