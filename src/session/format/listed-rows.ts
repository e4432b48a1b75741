/**
 * What a listing makes of stored rows (docs/design.md §3). A session exists once it holds
 * a message: rows of sessions holding none are left out unless asked for. Rows of
 * earlier builds lack what those builds did not record: whether messages were cleared into the
 * session's archive, and an automatic title. Such a row, when it needs either, is completed from
 * a lock-free reading of its session, each time it is listed: nothing is rewritten. (So is a
 * PostgreSQL row with no snapshot yet, whose counts come with its first snapshot.)
 */
import { automaticTitle, firstUserMessage } from '../model/auto-title.js';
import { archivedCount } from './index-row.js';
import type { IndexRow } from '../api/listing.js';
import type { SessionSnapshot } from '../api/data.js';

/** True when the row's session holds a message, live or cleared (a session with a problem is always listed). */
export function holdsMessage(row: IndexRow): boolean {
  return row.problem !== undefined || row.messageCount > 0 || (row.archivedMessages ?? 0) > 0;
}

/** A row of an earlier build that cannot tell by itself whether it holds a message, or what its automatic title is. */
function incomplete(row: IndexRow): boolean {
  return row.problem === undefined && row.archivedMessages === undefined && (row.messageCount === 0 || row.title === null);
}

/** `rows` with the rows of earlier builds completed from their sessions (`read`: undefined when unreadable). */
export async function completeRows(
  rows: readonly IndexRow[],
  read: (id: string) => Promise<SessionSnapshot | undefined>,
  redact: (text: string) => string,
): Promise<IndexRow[]> {
  const out = rows.slice();
  for (const [i, row] of out.entries()) {
    if (!incomplete(row)) continue;
    const s = await read(row.id);
    if (!s) continue;
    const first = row.title === null ? firstUserMessage(s) : undefined;
    const derivedTitle = first ? await automaticTitle(first.content, redact) : null;
    out[i] = {
      ...row,
      // A PostgreSQL row gets its counts with its first snapshot: before it, the events tell.
      messageCount: Math.max(row.messageCount, s.stats.messageCount),
      archivedMessages: archivedCount(s),
      ...(derivedTitle !== null ? { derivedTitle } : {}),
    };
  }
  return out;
}
