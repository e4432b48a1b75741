import { closeSync, fdatasync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { writeCacheFile, writeFileAtomic } from './atomic-write.js';
import { errno } from '../../util/errno.js';
import { layout } from './layout.js';
import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import { indexBody, parseHeader, readStart } from './index-head.js';
import { nextLog, type IndexLog } from './index-log.js';
import { foldLog, foldRows, parseTail, recordText, tailEnd, tailLimit } from './index-tail.js';

/**
 * `index.json` read whole and written (docs/design.md §8): the body, rewritten atomically, and
 * the tail, where a write of a few rows appends one line (index-tail.ts). Writers hold the index
 * lock (index-store.ts); readers take none.
 */
export interface IndexFile extends Partial<IndexLog> {
  format: 'chatkeep.index';
  version: 2 | 3;
  sessionsMtimeMs: number;
  /** Newest first, the tail folded in. */
  rows: IndexRow[];
}

export type ReadResult = { kind: 'ok'; index: IndexFile } | { kind: 'missing' } | { kind: 'damaged' } | { kind: 'unreadable' };

/**
 * Read synchronously: through the thread pool a read is four round trips (open, stat, read,
 * close), most of a small project's listing, while at 100,000 sessions reading the 40 MB is a
 * small part of parsing it, which blocks the event loop anyway.
 */
export async function readIndex(projectDir: string): Promise<ReadResult> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(layout.index(projectDir));
  } catch (err) {
    // Unreadable (permissions, not a file): list from the session files, touch nothing.
    return errno(err) === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  const index = parseIndex(bytes);
  return index ? { kind: 'ok', index } : { kind: 'damaged' };
}

function parseIndex(bytes: Buffer): IndexFile | undefined {
  const newline = bytes.indexOf(0x0a);
  const header = newline < 0 ? undefined : parseHeader(bytes.subarray(0, newline).toString('utf8'));
  const bodyBytes = header?.version === 3 ? header.bodyBytes! : bytes.length;
  if (bodyBytes > bytes.length) return undefined;
  let value: Partial<IndexFile>;
  try {
    value = JSON.parse(bytes.subarray(0, bodyBytes).toString('utf8')) as Partial<IndexFile>;
  } catch {
    return undefined;
  }
  const ok = value.format === 'chatkeep.index' && (value.version === 2 || value.version === 3) &&
    Array.isArray(value.rows) && typeof value.sessionsMtimeMs === 'number';
  if (!ok) return undefined;
  // A version 3 body is whole only with its header (its log, where it ends); the tail must follow on.
  if (value.version === 3 && !header?.log) return undefined;
  if (!header?.log || header.version !== 3) return value as IndexFile;
  const tail = parseTail(bytes.subarray(bodyBytes), header.log.serial);
  if (tail.kind === 'damaged') return undefined;
  return { ...(value as IndexFile), ...foldLog(header.log, tail.records), rows: foldRows(value.rows as IndexRow[], tail.records) };
}

/**
 * Writes the whole file anew, its tail folded in. `durable: false` for a rebuild: it replaces a
 * missing or damaged index with the truth of the moment, so after a power cut it can only be
 * missing or damaged again (and rebuilt), never an older set of rows; skipping the two fsyncs of
 * ~3 MB at 10,000 sessions saves tens of ms.
 */
export async function writeIndex(
  projectDir: string,
  sessionsMtimeMs: number,
  rows: IndexRow[],
  log: IndexLog,
  durable = true,
  /** Rows' JSON lines as read (indexBody). */
  lines?: ReadonlyMap<IndexRow, Uint8Array>,
): Promise<void> {
  rows.sort(byUpdatedDesc);
  await (durable ? writeFileAtomic : writeCacheFile)(layout.index(projectDir), indexBody(sessionsMtimeMs, rows, log, lines));
}

/**
 * Records `changed` (under the index lock): one line appended to the tail, made durable, when
 * the file is this build's and its tail has room; else the whole file rewritten, the tail folded
 * in. A missing or damaged index is left for the next listing to rebuild. Resolves to the bytes
 * written.
 */
export async function recordRows(projectDir: string, changed: readonly IndexRow[]): Promise<number> {
  const appended = await appendRecord(projectDir, changed);
  if (appended !== undefined) return appended;
  const read = await readIndex(projectDir);
  if (read.kind !== 'ok') return 0;
  const ids = new Set(changed.map((r) => r.id));
  const rows = read.index.rows.filter((r) => !ids.has(r.id));
  rows.push(...changed);
  const body = indexBody(read.index.sessionsMtimeMs, rows.sort(byUpdatedDesc), nextLog(read.index, [...ids]));
  await writeFileAtomic(layout.index(projectDir), body);
  return body.byteLength;
}

/**
 * The bytes appended; undefined when the whole file is to be rewritten. Read and written
 * synchronously (a few hundred bytes, and the tail of at most 512 KB): through the thread pool
 * this was seven round trips under the index lock; only the sync waits on the disk.
 */
async function appendRecord(projectDir: string, changed: readonly IndexRow[]): Promise<number | undefined> {
  let fd: number;
  try {
    fd = openSync(layout.index(projectDir), 'r+');
  } catch {
    return undefined;
  }
  try {
    const record = appendedRecord(fd, changed);
    if (record !== undefined) await datasync(fd);
    return record;
  } finally {
    closeSync(fd);
  }
}

/**
 * What a writer reads of the file's start: the header line, which holds its log of up to 256 IDs
 * (7-10 KB of chatkeep's IDs; longer, readStart reads on). The 64 KB a listing's head reads were
 * up to a tenth of an append's CPU (docs/internals.md, "The index update by CPU").
 */
const HEADER_BYTES = 16 * 1024;

/** Appends the record of `changed` after the tail's last whole line; undefined when the file is to be rewritten. */
function appendedRecord(fd: number, changed: readonly IndexRow[]): number | undefined {
  const { size, header, tail: tailBytes } = readStart(fd, HEADER_BYTES);
  if (header?.version !== 3 || !header.log || header.bodyBytes! > size) return undefined;
  const bodyBytes = header.bodyBytes!;
  const tail = tailEnd(tailBytes, header.log.serial);
  if (!tail) return undefined;
  const record = Buffer.from(recordText(tail.serial + 1, changed), 'utf8');
  if (tail.whole + record.length > tailLimit(bodyBytes)) return undefined;
  // A line cut short by a crash is no record: cut off before this one follows the last whole line.
  const at = bodyBytes + tail.whole;
  if (at < size) ftruncateSync(fd, at);
  for (let offset = 0; offset < record.length; ) offset += writeSync(fd, record, offset, record.length - offset, at + offset);
  return record.length;
}

function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
}
