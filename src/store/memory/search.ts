/**
 * The memory store's full-text search: every listed session's messages at hand, searched by
 * src/search/ as every store's candidates are (same scoring, ranking and snippets).
 */
import { searchableMessages } from '../../search/rank.js';
import { searchMessages } from '../../search/search-messages.js';
import type { SearchResults } from '../../session/api/search-data.js';
import { summaryFromRow } from '../../session/format/index-row.js';
import type { IndexRow } from '../../session/api/listing.js';
import type { SessionSnapshot } from '../../session/api/data.js';

/** Searches the sessions of `rows`, each read by `read` (undefined: unreadable, left out). */
export async function searchRows(
  query: string,
  rows: readonly IndexRow[],
  read: (id: string) => Promise<SessionSnapshot | undefined>,
  limit?: number,
): Promise<SearchResults> {
  const sessions = [];
  for (const row of rows) {
    const snapshot = await read(row.id);
    if (snapshot) sessions.push({ summary: summaryFromRow(row), messages: searchableMessages(snapshot) });
  }
  return { ...searchMessages(query, sessions, limit), index: [] };
}
