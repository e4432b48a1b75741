import type { SessionSnapshot, SessionStatus, SessionSummary } from './types.js';

/**
 * One row of `index.json`: what a listing shows, with times as epoch milliseconds (cheaper to
 * parse and turn into Dates than ISO strings: listing 10,000 rows must stay near the cost of
 * parsing them), plus the journalSeq of the snapshot the row describes.
 */
export interface IndexRow {
  id: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  status: SessionStatus;
  project: string;
  journalSeq: number;
}

/** The row describing a snapshot. */
export function rowFromSnapshot(s: SessionSnapshot, status: SessionStatus): IndexRow {
  return {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt.getTime(),
    updatedAt: s.updatedAt.getTime(),
    messageCount: s.stats.messageCount,
    status,
    project: s.project,
    journalSeq: s.journalSeq,
  };
}

/** A listing row for users. */
export function summaryFromRow(row: IndexRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    messageCount: row.messageCount,
    status: row.status,
    project: row.project,
  };
}

/** Newest first. */
export function byUpdatedDesc(a: IndexRow, b: IndexRow): number {
  return b.updatedAt - a.updatedAt;
}
