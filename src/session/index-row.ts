import { blankSnapshot } from './blank.js';
import { replay } from './replay.js';
import type { SessionEvent } from './store.js';
import type { SessionSnapshot, SessionStatus } from './data.js';
import type { IndexRow, SessionSummary } from './listing.js';

/** The row describing a snapshot. */
export function rowFromSnapshot(s: SessionSnapshot, status: SessionStatus): IndexRow {
  return {
    id: s.id,
    title: s.title,
    ...(s.titleSource ? { titleSource: s.titleSource } : {}),
    archivedMessages: archivedCount(s),
    createdAt: s.createdAt.getTime(),
    updatedAt: s.updatedAt.getTime(),
    messageCount: s.stats.messageCount,
    status,
    project: s.project,
    journalSeq: s.journalSeq,
    inputTokens: s.stats.inputTokens,
    outputTokens: s.stats.outputTokens,
    ...(s.git?.branch ? { branch: s.git.branch } : {}),
    ...(s.stats.byModel?.length ? { byModel: s.stats.byModel.map((m) => ({ ...m })) } : {}),
    ...lineage(s),
  };
}

/** How many messages /reset and /compact cleared into the session's archive. */
export function archivedCount(s: Pick<SessionSnapshot, 'archived'>): number {
  return s.archived.reduce((n, segment) => n + segment.stats.messageCount, 0);
}

/** `{parentId, forkPoint}` of a fork, else nothing. */
function lineage(from: { parentId?: string; forkPoint?: number }): { parentId?: string; forkPoint?: number } {
  return from.parentId !== undefined ? { parentId: from.parentId, forkPoint: from.forkPoint ?? 0 } : {};
}

/** A listing row for users. */
export function summaryFromRow(row: IndexRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    // A title in a file of an earlier build was chosen: those builds had no other kind.
    ...(row.title !== null ? { titleSource: row.titleSource ?? 'user' } : {}),
    ...(row.title === null && row.derivedTitle !== undefined ? { derivedTitle: row.derivedTitle } : {}),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    messageCount: row.messageCount,
    status: row.status,
    project: row.project,
    ...(row.inputTokens || row.outputTokens
      ? { usage: { inputTokens: row.inputTokens ?? 0, outputTokens: row.outputTokens ?? 0 } }
      : {}),
    ...(row.problem ? { problem: row.problem } : {}),
    ...(row.branch ? { branch: row.branch } : {}),
    ...(row.byModel?.length ? { byModel: row.byModel } : {}),
    ...lineage(row),
    ...(row.owner !== undefined ? { owner: row.owner } : {}),
  };
}

/** Newest first. */
export function byUpdatedDesc(a: IndexRow, b: IndexRow): number {
  return b.updatedAt - a.updatedAt;
}

/**
 * Brings a row up to date with the events past its snapshot, through the one interpreter of
 * events (`replay`), over a snapshot that holds only what the row knows (no message bodies).
 */
export function rowWithEvents(row: IndexRow, events: readonly SessionEvent[]): IndexRow {
  const s = blankSnapshot(row.id, row.project, new Date(row.createdAt));
  s.title = row.title;
  if (row.titleSource) s.titleSource = row.titleSource;
  s.updatedAt = new Date(row.updatedAt);
  s.journalSeq = row.journalSeq;
  s.stats = {
    messageCount: row.messageCount,
    inputTokens: row.inputTokens ?? 0,
    outputTokens: row.outputTokens ?? 0,
    ...(row.byModel ? { byModel: row.byModel.map((m) => ({ ...m })) } : {}),
  };
  if (row.branch !== undefined) s.git = { root: '', branch: row.branch, head: null };
  if (row.parentId !== undefined) {
    s.parentId = row.parentId;
    s.forkPoint = row.forkPoint ?? 0;
  }
  replay(s, events);
  // The row still describes the snapshot it was made from: its seq is that snapshot's.
  const next = { ...rowFromSnapshot(s, row.status), journalSeq: row.journalSeq };
  // What the snapshot had archived, plus what the events archived since (unknown stays unknown).
  if (row.archivedMessages !== undefined) next.archivedMessages! += row.archivedMessages;
  else if (next.archivedMessages === 0) delete next.archivedMessages;
  return next;
}
