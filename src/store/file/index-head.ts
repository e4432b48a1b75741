import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import { isLog, type IndexLog } from './index-log.js';
import { foldLog, latestRows, parseTail, type TailRecord } from './index-tail.js';

/**
 * The newest rows of `index.json` without reading the rest (docs/design.md §8). The body is
 * written as a header line, then one row per line, newest first (one JSON document); the
 * writes since follow it as the tail (index-tail.ts). The header says where the last row that a
 * listing must look at again sits (`lastLive`: not closed, or with a problem), so a listing of
 * the newest n rows is complete when it reads the first max(n, lastLive + 1) rows and the tail.
 */
export interface IndexHeader {
  format: 'chatkeep.index';
  /** 3: a body with a tail after it (`bodyBytes`); 2: an older build's file, one JSON document. */
  version: 2 | 3;
  sessionsMtimeMs: number;
  /** Position of the last row a listing refreshes (-1: none). */
  lastLive: number;
  /** Rows in the body (in a head read with a tail: at least the rows of the index). */
  rowCount: number;
  /** Bytes of the body, header included; the tail starts there. */
  bodyBytes?: number;
  /** What changed, write by write (index-log.ts); absent in a file an older build wrote. */
  log?: IndexLog;
}

/** Bytes read for the head: about 200 rows, more than a screenful. */
const HEAD_BYTES = 64 * 1024;

const ROWS_OPEN = ',"rows":[';
const ROW_SEPARATOR = Buffer.from(',\n');

/**
 * The body's bytes: the header line, then each row on its own line (no tail yet). `lines`: a
 * row's JSON text as it was read, one line of UTF-8 (meta-file.ts), used as it is: a rebuild
 * of 2,000 rows spent about half what reading their meta files costs on writing each row as
 * JSON again and encoding the text twice, its length and then the write (docs/internals.md,
 * "The listing without an index: each row written as read").
 */
export function indexBody(sessionsMtimeMs: number, rows: readonly IndexRow[], log: IndexLog, lines?: ReadonlyMap<IndexRow, Uint8Array>): Buffer {
  const lastLive = lastLiveOf(rows);
  const parts: Uint8Array[] = [];
  // Rows without a line are written as JSON and encoded together: one encoding per run of them.
  let pending = `${ROWS_OPEN}\n`;
  rows.forEach((r, i) => {
    const line = lines?.get(r);
    if (line === undefined) {
      pending += (i === 0 ? '' : ',\n') + JSON.stringify(r);
      return;
    }
    if (pending !== '') parts.push(Buffer.from(pending));
    pending = '';
    if (i > 0) parts.push(ROW_SEPARATOR);
    parts.push(line);
  });
  parts.push(Buffer.from(`${pending}\n]}\n`));
  let restBytes = 0;
  for (const part of parts) restBytes += part.byteLength;
  // The header records the body's length, its own included: the length it settles at.
  let bodyBytes = 0;
  let header = '';
  for (;;) {
    header = JSON.stringify({ format: 'chatkeep.index', version: 3, sessionsMtimeMs, lastLive, rowCount: rows.length, bodyBytes, ...log }).slice(0, -1);
    const total = Buffer.byteLength(header) + restBytes;
    if (total === bodyBytes) break;
    bodyBytes = total;
  }
  // `{...,"rows":[` on the first line: the header alone parses once `[]}` closes it.
  return Buffer.concat([Buffer.from(header), ...parts], bodyBytes);
}

function lastLiveOf(rows: readonly IndexRow[]): number {
  let lastLive = -1;
  rows.forEach((r, i) => {
    if (r.status !== 'closed' || r.problem) lastLive = i;
  });
  return lastLive;
}

/**
 * The newest `n` rows when the head of the file holds them, the index is current (`mtime`), and
 * every row to refresh is among them; undefined otherwise (the caller reads the whole file). A
 * row that does not parse is never trusted: undefined.
 */
export function readIndexHead(path: string, n: number, mtime: number): IndexRow[] | undefined {
  const head = readHead(path, n);
  if (!head || head.header.sessionsMtimeMs !== mtime) return undefined;
  const wanted = Math.min(head.header.rowCount, Math.max(n, head.header.lastLive + 1));
  if (head.count < wanted) return undefined;
  const rows = headRows(head, wanted);
  return rows.length < wanted ? undefined : rows;
}

/**
 * The rows a head read placed for sure (a prefix of the whole listing): the body's lines parsed
 * as they are asked for (a screenful parses the rows it shows), or the rows the tail was folded
 * into, parsed already.
 */
export interface Head {
  header: IndexHeader;
  count: number;
  /** The `i`th row; undefined when its line does not parse (never trusted). */
  row(i: number): IndexRow | undefined;
}

/**
 * The header and the whole row lines of the file's first 64 KB (rows not parsed: a caller parses
 * those it needs), with the tail folded in: then the rows are those the head and the tail
 * together place for sure (a prefix of the whole listing), and the header's `lastLive`, `rowCount`
 * and log describe them. Undefined when the file is missing, its first line is no header, or its
 * tail is damaged (the caller reads it whole, which finds that out).
 *
 * `newest`: a caller that needs no more than the first max(newest, lastLive + 1) rows; only those,
 * and one more for each record of the tail, are decoded and parsed (UTF-8 decoding and parsing the
 * whole 64 KB cost several times what a screenful needs). Read synchronously (readStart).
 */
export function readHead(path: string, newest = Infinity): Head | undefined {
  let read: IndexStart;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readStart(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const { start: buffer, header } = read;
  if (!header) return undefined;
  let records: TailRecord[] = [];
  if (read.tail.length > 0) {
    const parsed = parseTail(read.tail, header.log?.serial ?? -1);
    if (parsed.kind === 'damaged' || !header.log) return undefined;
    records = parsed.records;
  }
  // The rows asked for, and as many more as the tail has records: each record takes at most one
  // of the body's rows out of its place, so the first `newest` rows of the two together are among these.
  const needed = Math.min(header.rowCount, Math.max(newest, header.lastLive + 1) + records.length);
  const lines = buffer.toString('utf8', 0, afterLines(buffer, needed + 1)).split('\n');
  // The last piece may be a row cut by the read (or the closing `]}`): only the lines before it are rows.
  const body = lines.slice(1, Math.min(lines.length - 1, needed + 1));
  const unparsed: Head = { header, count: body.length, row: (i) => parseRow(body[i]) };
  if (records.length === 0 || !header.log) return unparsed;
  const folded = withTail(header, header.log, headRows(unparsed), records);
  return { header: folded.header, count: folded.rows.length, row: (i) => folded.rows[i] };
}

/** index.json's start as read from an open file: its size, first HEAD_BYTES, header, and tail. */
export interface IndexStart {
  size: number;
  start: Buffer;
  /** From the first line; undefined when there is none or it is no header. */
  header: IndexHeader | undefined;
  /** The bytes past the body the header counts (empty without a header, or when there are none). */
  tail: Buffer;
}

/**
 * Reads index.json's start and tail from `fd`, synchronously, as a stat is (snapshot-stamp.ts):
 * a small read or two, where a read through the thread pool costs several round trips. The
 * listing's head (readHead) and a writer's tail append (index-file.ts) both start here.
 * `headBytes`: how much of the start to read first; a start without a whole first line is read
 * again up to HEAD_BYTES (a writer, which needs the header line alone, asks for less).
 */
export function readStart(fd: number, headBytes = HEAD_BYTES): IndexStart {
  const size = fstatSync(fd).size;
  let start = readAt(fd, Math.min(size, headBytes), 0);
  if (start.indexOf(0x0a) < 0 && start.length < Math.min(size, HEAD_BYTES)) start = readAt(fd, Math.min(size, HEAD_BYTES), 0);
  const newline = start.indexOf(0x0a);
  const header = newline < 0 ? undefined : parseHeader(start.toString('utf8', 0, newline));
  const bodyBytes = header?.bodyBytes;
  const tail = bodyBytes !== undefined && size > bodyBytes ? readAt(fd, size - bodyBytes, bodyBytes) : Buffer.alloc(0);
  return { size, start, header, tail };
}

/** Up to `length` bytes of `fd` from `position` (fewer when the file ends first). */
function readAt(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
}

/** The offset just past the `count`th line of `buffer` (its length when it holds fewer). */
function afterLines(buffer: Buffer, count: number): number {
  let end = 0;
  for (let i = 0; i < count; i++) {
    const newline = buffer.indexOf(0x0a, end);
    if (newline < 0) return buffer.length;
    end = newline + 1;
  }
  return end;
}

/**
 * The head's rows with the tail's folded in, cut where a row the head did not reach might come
 * first. `read`: the body's rows up to the first that does not parse.
 */
function withTail(header: IndexHeader, log: IndexLog, read: IndexRow[], records: TailRecord[]): { header: IndexHeader; rows: IndexRow[] } {
  const latest = latestRows(records);
  const fromBody = new Set(read.filter((r) => !latest.has(r.id)));
  const merged = [...fromBody, ...latest.values()].sort(byUpdatedDesc);
  let rows = merged;
  const complete = read.length === header.rowCount;
  if (!complete) {
    // Rows past the head sort after its last row, and before a tail row as new (a stable sort).
    const last = read.at(-1);
    rows = merged.filter((r) => last !== undefined && (r.updatedAt > last.updatedAt || (r.updatedAt === last.updatedAt && fromBody.has(r))));
  }
  // Every row to refresh: the body's are among the first lastLive + 1, the tail's anywhere.
  const liveReached = complete || (read.length > header.lastLive && [...latest.values()].every((r) => (r.status === 'closed' && !r.problem) || rows.includes(r)));
  // A row to refresh that these rows may not reach: a `lastLive` past them sends the caller to the whole file.
  const lastLive = liveReached ? lastLiveOf(rows) : rows.length;
  const readIds = new Set(read.map((r) => r.id));
  const rowCount = complete ? merged.length : header.rowCount + [...latest.keys()].filter((id) => !readIds.has(id)).length;
  return { header: { ...header, lastLive, rowCount, log: foldLog(log, records) }, rows };
}

/** The first `count` rows of `head` up to the first that does not parse (a row that does not parse is never trusted). */
export function headRows(head: Head, count = head.count): IndexRow[] {
  const rows: IndexRow[] = [];
  for (let i = 0; i < Math.min(count, head.count); i++) {
    const row = head.row(i);
    if (!row) break;
    rows.push(row);
  }
  return rows;
}

/** The header of a first line; a version 3 header must say where its body ends and carry its log. */
export function parseHeader(line: string | undefined): IndexHeader | undefined {
  if (!line?.endsWith(ROWS_OPEN)) return undefined;
  try {
    const value = JSON.parse(`${line.slice(0, -ROWS_OPEN.length)}}`) as Partial<IndexHeader>;
    const ok =
      value.format === 'chatkeep.index' && (value.version === 2 || (value.version === 3 && Number.isInteger(value.bodyBytes))) &&
      typeof value.sessionsMtimeMs === 'number' && Number.isInteger(value.lastLive) && Number.isInteger(value.rowCount);
    if (!ok) return undefined;
    const { epoch, serial, logFrom, changes, ...rest } = value as IndexHeader & Partial<IndexLog>;
    const log = { epoch, serial, logFrom, changes };
    const logged = isLog(log);
    if (value.version === 3 && !logged) return undefined;
    return { ...(rest as IndexHeader), ...(logged ? { log } : {}) };
  } catch {
    return undefined;
  }
}

function parseRow(line: string | undefined): IndexRow | undefined {
  if (!line) return undefined;
  try {
    const value = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as Partial<IndexRow> | null;
    return value && typeof value.id === 'string' && typeof value.updatedAt === 'number' ? (value as IndexRow) : undefined;
  } catch {
    return undefined;
  }
}
