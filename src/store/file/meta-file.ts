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

/** The format and version every meta file names. */
const FORMAT: Omit<MetaFile, 'row'> = { format: 'chatkeep.meta', version: 1 };

/** A meta file's text up to its row: `JSON.stringify` of a MetaFile is this, then the row, then `}`. */
const META_HEAD = `${JSON.stringify(FORMAT).slice(0, -1)},"row":`;

/** The meta file's text for `row`: the MetaFile's JSON, written as META_HEAD, the row and `}`. */
function metaText(row: IndexRow): string {
  return `${META_HEAD}${JSON.stringify(row)}}`;
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
 * of another session): the caller then reads the snapshot.
 */
export function readMetaSync(sessionDir: string, id: string): IndexRow | undefined {
  return readMetaRowSync(sessionDir, id)?.row;
}

/** A meta file's row, and its JSON text as one line of UTF-8 when the file is as `writeMeta` wrote it. */
export interface MetaRow {
  row: IndexRow;
  line?: Buffer;
}

const META_OPEN = Buffer.from(META_HEAD);
const CLOSE_BRACE = 0x7d;

/**
 * `readMetaSync`'s row, with its line for index.json (index-head.ts, `indexBody`). Synchronous on
 * purpose: a rebuild reads thousands of these small files, and a direct read costs a fraction of
 * a round trip through libuv's thread pool (the caller yields between batches). A file that is
 * META_HEAD + a JSON value + `}` (what `writeMeta` writes) has
 * only that value parsed: the whole file, parsed, is that same row with that format and version.
 * Anything else is parsed whole, as it always was (and has no line).
 */
export function readMetaRowSync(sessionDir: string, id: string): MetaRow | undefined {
  let length: number;
  try {
    length = readSmallSync(layout.meta(sessionDir));
  } catch {
    return undefined; // missing or unreadable
  }
  if (length < 0) return undefined;
  const start = META_OPEN.length;
  const value = smallBuffer.subarray(start, length - 1);
  // A line is one line: a row written with line breaks (by hand) is parsed whole and written anew.
  if (length > start && smallBuffer[length - 1] === CLOSE_BRACE && smallBuffer.subarray(0, start).equals(META_OPEN) && value.indexOf(0x0a) < 0 && value.indexOf(0x0d) < 0) {
    try {
      const row: unknown = JSON.parse(value.toString('utf8'));
      return isRow(row, id) ? { row, line: Buffer.from(value) } : undefined;
    } catch {
      // Not one value (`…},"row":{…}`, say): parsed whole below, as any other file.
    }
  }
  let meta: Partial<MetaFile>;
  try {
    meta = JSON.parse(smallBuffer.toString('utf8', 0, length)) as Partial<MetaFile>;
  } catch {
    return undefined; // damaged
  }
  return meta.format === FORMAT.format && meta.version === FORMAT.version && isRow(meta.row, id) ? { row: meta.row } : undefined;
}

const smallBuffer = Buffer.allocUnsafe(16 * 1024);

/**
 * A small file read in one read into the reused buffer, its length: readFileSync also stats
 * the file and allocates for it, which made reading 10,000 meta files 74 ms instead of 60. -1
 * when the file is larger than the buffer (no meta file chatkeep writes is).
 */
function readSmallSync(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const length = readSync(fd, smallBuffer, 0, smallBuffer.length, 0);
    return length < smallBuffer.length ? length : -1;
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
