import type { SessionSnapshot, SessionStatus, SessionSummary } from './types.js';

/** One row of `index.json`: a listing row with dates as ISO strings, plus the snapshot's seq. */
export interface IndexRow {
  id: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  status: SessionStatus;
  project: string;
  provider?: { name: string; model: string | null };
  usage?: { inputTokens: number; outputTokens: number };
  /** The snapshot's journalSeq when the row was written. */
  journalSeq: number;
}

/** The row describing a snapshot (as written by this process). */
export function rowFromSnapshot(s: SessionSnapshot, status: SessionStatus): IndexRow {
  return {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    messageCount: s.stats.messageCount,
    status,
    project: s.project,
    provider: { ...s.provider },
    usage: { inputTokens: s.stats.inputTokens, outputTokens: s.stats.outputTokens },
    journalSeq: s.journalSeq,
  };
}

/** A listing row for users. */
export function summaryFromRow(row: IndexRow): SessionSummary {
  const summary: SessionSummary = {
    id: row.id,
    title: row.title,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    messageCount: row.messageCount,
    status: row.status,
    project: row.project,
  };
  if (row.provider) summary.provider = row.provider;
  if (row.usage) summary.usage = row.usage;
  return summary;
}
