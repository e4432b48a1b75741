import { closeSync, openSync, readSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { writeCacheFile } from './atomic-write.js';
import { errno } from '../../util/errno.js';
import type { IndexRow } from '../../session/api/listing.js';
import { layout } from './layout.js';

/**
 * `session.meta.json`, beside the snapshot: the session's listing row, so that rebuilding a
 * missing index reads one small file per session instead of decoding every snapshot. It is
 * written atomically with the snapshot, as a pair: the snapshot writer removes it before a
 * new snapshot is renamed in (that rename's directory fsync makes the removal durable too) and
 * writes it again once the snapshot is in place; a session resumed for writing loses it until
 * its next snapshot. So a meta file present describes the snapshot in place, and a crash
 * anywhere between leaves none: the listing then reads the snapshot, as it does for sessions
 * written before meta files existed, or a damaged meta file. A session stored whole by the
 * batch (adopt-batch.ts: imports, copies) gets none: its row is in index.json. Like index.json, it
 * loses to the snapshot: the row records the snapshot's stamp (snapshot-stamp.ts), and a listing
 * that finds another stamp reads the session again and rewrites both (docs/design.md §8).
 */
interface MetaFile {
  format: 'chatkeep.meta';
  version: 1;
  row: IndexRow;
}

/** Records `row` for the snapshot now in place (call it after the snapshot is written). */
export async function writeMeta(sessionDir: string, row: IndexRow): Promise<void> {
  await writeCacheFile(layout.meta(sessionDir), metaText(row));
}

/** The meta file's text for `row`. */
function metaText(row: IndexRow): string {
  const meta: MetaFile = { format: 'chatkeep.meta', version: 1, row };
  return JSON.stringify(meta);
}

/** Forgets the row: before a new snapshot goes in, and when a session is resumed for writing. */
export async function removeMeta(sessionDir: string): Promise<void> {
  await unlink(layout.meta(sessionDir)).catch((err: unknown) => {
    // A directory in its place is never read as a row, and must not stop the snapshot.
    if (errno(err) !== 'ENOENT' && errno(err) !== 'EISDIR') throw err;
  });
}

/**
 * The row recorded for session `id`; undefined when the meta file is missing or damaged (or
 * of another session): the caller then reads the snapshot. Synchronous on purpose: a rebuild
 * reads thousands of these small files, and a direct read costs a fraction of a round trip
 * through libuv's thread pool (the caller yields between batches).
 */
export function readMetaSync(sessionDir: string, id: string): IndexRow | undefined {
  let meta: Partial<MetaFile>;
  try {
    const text = readSmallSync(layout.meta(sessionDir));
    if (text === undefined) return undefined;
    meta = JSON.parse(text) as Partial<MetaFile>;
  } catch {
    return undefined; // missing, unreadable or damaged
  }
  return meta.format === 'chatkeep.meta' && meta.version === 1 && isRow(meta.row, id) ? meta.row : undefined;
}

const smallBuffer = Buffer.allocUnsafe(16 * 1024);

/**
 * A small file's text, read in one read into a reused buffer: readFileSync also stats the file
 * and allocates for it, which made reading 10,000 meta files 74 ms instead of 60. Undefined
 * when the file is larger than the buffer (no meta file chatkeep writes is).
 */
function readSmallSync(path: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const length = readSync(fd, smallBuffer, 0, smallBuffer.length, 0);
    return length < smallBuffer.length ? smallBuffer.toString('utf8', 0, length) : undefined;
  } finally {
    closeSync(fd);
  }
}

function isRow(value: unknown, id: string): value is IndexRow {
  const r = value as Partial<IndexRow> | null;
  return (
    typeof r === 'object' && r !== null &&
    r.id === id &&
    (r.title === null || typeof r.title === 'string') &&
    Number.isFinite(r.createdAt) && Number.isFinite(r.updatedAt) &&
    Number.isInteger(r.messageCount) && Number.isInteger(r.journalSeq) &&
    (r.status === 'open' || r.status === 'closed') &&
    typeof r.project === 'string' &&
    (r.inputTokens === undefined || Number.isFinite(r.inputTokens)) &&
    (r.outputTokens === undefined || Number.isFinite(r.outputTokens))
  );
}
