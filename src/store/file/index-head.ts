import { open } from 'node:fs/promises';
import type { IndexRow } from '../../session/api/listing.js';
import { isLog, type IndexLog } from './index-log.js';

/**
 * The newest rows of `index.json` without reading the rest (docs/design.md §8). The index is
 * written as a header line, then one row per line, newest first (still one JSON document, so
 * any build reads it whole). The header says where the last row that a listing must look at
 * again sits (`lastLive`: not closed, or with a problem), so a listing of the newest n rows is
 * complete when it reads the first max(n, lastLive + 1) rows.
 */
export interface IndexHeader {
  format: 'chatkeep.index';
  version: 2;
  sessionsMtimeMs: number;
  /** Position of the last row a listing refreshes (-1: none). */
  lastLive: number;
  rowCount: number;
  /** What changed, write by write (index-log.ts); absent in a file an older build wrote. */
  log?: IndexLog;
}

/** Bytes read for the head: about 200 rows, more than a screenful. */
const HEAD_BYTES = 64 * 1024;

/** The file's text: the header line, then each row on its own line. */
export function indexText(sessionsMtimeMs: number, rows: readonly IndexRow[], log?: IndexLog): string {
  let lastLive = -1;
  rows.forEach((r, i) => {
    if (r.status !== 'closed' || r.problem) lastLive = i;
  });
  const header = JSON.stringify({ format: 'chatkeep.index', version: 2, sessionsMtimeMs, lastLive, rowCount: rows.length, ...log });
  // `{...,"rows":[` on the first line: the header alone parses once `[]}` closes it.
  return `${header.slice(0, -1)},"rows":[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}

/**
 * The newest `n` rows when the head of the file holds them, the index is current (`mtime`), and
 * every row to refresh is among them; undefined otherwise (the caller reads the whole file). A
 * row that does not parse is never trusted: undefined.
 */
export async function readIndexHead(path: string, n: number, mtime: number): Promise<IndexRow[] | undefined> {
  const head = await readHead(path);
  if (!head || head.header.sessionsMtimeMs !== mtime) return undefined;
  const wanted = Math.min(head.header.rowCount, Math.max(n, head.header.lastLive + 1));
  if (head.lines.length < wanted) return undefined;
  const rows: IndexRow[] = [];
  for (let i = 0; i < wanted; i++) {
    const row = parseRow(head.lines[i]);
    if (!row) return undefined;
    rows.push(row);
  }
  return rows;
}

/**
 * The header and the whole row lines of the file's first 64 KB (rows not parsed: a caller parses
 * those it needs). Undefined when the file is missing or its first line is no header.
 */
export async function readHead(path: string): Promise<{ header: IndexHeader; lines: string[] } | undefined> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const header = parseHeader(lines[0]);
  if (!header) return undefined;
  // The last piece may be a row cut by the read (or the closing `]}`): only the lines before it are rows.
  return { header, lines: lines.slice(1, Math.min(lines.length - 1, header.rowCount + 1)) };
}

/** The rows of `lines` up to the first that does not parse (a row that does not parse is never trusted). */
export function headRows(lines: readonly string[], count = lines.length): IndexRow[] {
  const rows: IndexRow[] = [];
  for (const line of lines.slice(0, count)) {
    const row = parseRow(line);
    if (!row) break;
    rows.push(row);
  }
  return rows;
}

function parseHeader(line: string | undefined): IndexHeader | undefined {
  if (!line?.endsWith(',"rows":[')) return undefined;
  try {
    const value = JSON.parse(`${line.slice(0, -',"rows":['.length)}}`) as Partial<IndexHeader>;
    const ok =
      value.format === 'chatkeep.index' && value.version === 2 && typeof value.sessionsMtimeMs === 'number' &&
      Number.isInteger(value.lastLive) && Number.isInteger(value.rowCount);
    if (!ok) return undefined;
    const { epoch, serial, logFrom, changes, ...rest } = value as IndexHeader & Partial<IndexLog>;
    const log = { epoch, serial, logFrom, changes };
    return { ...(rest as IndexHeader), ...(isLog(log) ? { log } : {}) };
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
