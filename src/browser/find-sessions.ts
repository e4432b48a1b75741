/**
 * What the browser's query finds: one small function over today's search API, so a faster one
 * (incremental narrowing as the query grows) can take its place without the browser changing.
 */
import { fold } from '../search/fold.js';
import type { SessionSummary } from '../session/api/listing.js';
import type { SessionManager } from '../session/runtime/manager-api.js';

/** What a search found: IDs best first, and whether the search holds more than were asked for. */
export interface Found {
  ids: string[];
  more: boolean;
}

/**
 * The IDs of `rows` (the scope's listing) that `query` matches, best first: the full-text search
 * (message text, titles, IDs) in its order, then rows whose git branch or project path hold the
 * query (folded as the search folds), newest first. With `first`, the search's first that many
 * (`more` says whether it holds others: the browser paints those, then asks for every one);
 * without, every match.
 */
export async function findSessions(
  sessions: Pick<SessionManager, 'search'>,
  rows: readonly SessionSummary[],
  query: string,
  all: boolean,
  first?: number,
): Promise<Found> {
  const text = query.trim();
  if (text === '') return { ids: rows.map((row) => row.id), more: false };
  const inScope = new Set(rows.map((row) => row.id));
  const found = await sessions.search(text, { all, limit: first ?? 0 });
  const ids = found.results.map((result) => result.session.id).filter((id) => inScope.has(id));
  const seen = new Set(ids);
  const needle = fold(text);
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    if ((row.branch !== undefined && fold(row.branch).includes(needle)) || fold(row.project).includes(needle)) ids.push(row.id);
  }
  return { ids, more: found.total > found.results.length };
}
