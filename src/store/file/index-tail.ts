import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import { nextLog, type IndexLog } from './index-log.js';

/**
 * The tail of `index.json` (docs/design.md §8): after the sorted body, one line per write since
 * the body was written, `{"serial":n,"rows":[...]}`, each the rows that write changed. A write
 * appends its line (it costs what it changes); readers fold the lines into the body; a write
 * that would make the tail too long rewrites the whole file instead, the tail folded in.
 */
export interface TailRecord {
  serial: number;
  rows: IndexRow[];
}

export type Tail =
  /** `whole`: the bytes of the records that end in a newline (a cut last line after them is not one). */
  | { kind: 'ok'; records: TailRecord[]; whole: number }
  | { kind: 'damaged' };

/** Bytes of tail past which a write rewrites the file instead: 1/16 of the body, at least 64 KB, at most 512 KB. */
export function tailLimit(bodyBytes: number): number {
  return Math.max(64 * 1024, Math.min(Math.floor(bodyBytes / 16), 512 * 1024));
}

export function recordText(serial: number, rows: readonly IndexRow[]): string {
  return `${JSON.stringify({ serial, rows })}\n`;
}

/**
 * The records of `bytes` (everything after the body), which must follow the body's serial one
 * by one. A last line without its newline is a write cut short (or still under way): not a
 * record, never trusted. Any other line that is not the next record makes the index damaged.
 */
export function parseTail(bytes: Buffer, bodySerial: number): Tail {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const records: TailRecord[] = [];
  if (end === 0) return { kind: 'ok', records, whole: 0 };
  let serial = bodySerial;
  for (const line of bytes.subarray(0, end - 1).toString('utf8').split('\n')) {
    const record = parseRecord(line);
    if (!record || record.serial !== serial + 1) return { kind: 'damaged' };
    serial = record.serial;
    records.push(record);
  }
  return { kind: 'ok', records, whole: end };
}

/**
 * What a writer appending after the tail needs of it: the serial its record follows and the
 * bytes of the whole lines (a cut last line after them is cut off). Only the last line is parsed;
 * the earlier ones are counted. A writer reads no row of the tail, and every reader parses each
 * line (parseTail): a damaged line anywhere still makes the index damaged where it is read, and
 * a write after it changes nothing of that. Parsing every line here was a fifth of an append's
 * CPU at 1,000 sessions and half at 10,000 (docs/internals.md, "The index update by CPU").
 * Undefined when the last record does not parse or does not follow the body's serial line by line.
 */
export function tailEnd(bytes: Buffer, bodySerial: number): { serial: number; whole: number } | undefined {
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end === 0) return { serial: bodySerial, whole: 0 };
  let lines = 0;
  let lastStart = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0 && at < end; at = bytes.indexOf(0x0a, at + 1)) {
    lines++;
    if (at < end - 1) lastStart = at + 1;
  }
  const last = parseRecord(bytes.toString('utf8', lastStart, end - 1));
  return last?.serial === bodySerial + lines ? { serial: last.serial, whole: end } : undefined;
}

function parseRecord(line: string): TailRecord | undefined {
  try {
    const value = JSON.parse(line) as Partial<TailRecord> | null;
    const ok = value !== null && Number.isInteger(value.serial) && Array.isArray(value.rows) &&
      value.rows.every((r: Partial<IndexRow> | null) => r !== null && typeof r.id === 'string' && typeof r.updatedAt === 'number');
    return ok ? (value as TailRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Each row's latest version in the records, in the order a write after write would have placed them. */
export function latestRows(records: readonly TailRecord[]): Map<string, IndexRow> {
  const latest = new Map<string, IndexRow>();
  for (const record of records) {
    for (const row of record.rows) {
      latest.delete(row.id);
      latest.set(row.id, row);
    }
  }
  return latest;
}

/** The body's rows with the records folded in, newest first: what rewriting the file after each write would hold. */
export function foldRows(body: readonly IndexRow[], records: readonly TailRecord[]): IndexRow[] {
  if (records.length === 0) return body.slice();
  const latest = latestRows(records);
  return [...body.filter((r) => !latest.has(r.id)), ...latest.values()].sort(byUpdatedDesc);
}

/** The header's log after the records' writes. */
export function foldLog(log: IndexLog, records: readonly TailRecord[]): IndexLog {
  return records.reduce((at, record) => nextLog(at, [...new Set(record.rows.map((r) => r.id))]), log);
}
