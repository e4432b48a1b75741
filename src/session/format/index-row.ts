import type { SessionSnapshot, SessionStatus } from '../api/data.js';
import type { IndexRow, SessionSummary } from '../api/listing.js';

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
