/**
 * The generic full-text search, for a store without its own (docs/design.md §7, §18): every
 * listed session read whole, its messages searched by src/search/ as every store's candidates are
 * (same scoring, ranking and snippets); the session manager is handed it (store/open.ts) as the
 * default for such a store (session/runtime/store-defaults.ts). Linear in the text: the file store and PostgreSQL keep an
 * index instead.
 */
import { searchableMessages } from './rank.js';
import { searchMessages } from './search-messages.js';
import type { SearchResults } from '../session/api/search-data.js';
import { summaryFromRow } from '../session/format/index-row.js';
import type { IndexRow } from '../session/api/listing.js';
import type { SessionSnapshot } from '../session/api/data.js';

/** Searches the sessions of `rows`, each read by `read` (undefined: unreadable, left out). */
export async function searchRows(
  query: string,
  rows: readonly IndexRow[],
  read: (row: IndexRow) => Promise<SessionSnapshot | undefined>,
  limit?: number,
): Promise<SearchResults> {
  const sessions = [];
  for (const row of rows) {
    const snapshot = await read(row);
    if (snapshot) sessions.push({ summary: summaryFromRow(row), messages: searchableMessages(snapshot) });
  }
  return { ...searchMessages(query, sessions, limit), index: [] };
}
