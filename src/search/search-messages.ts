/**
 * Search over sessions whose messages are at hand: what a store without the file store's byte
 * index does with its candidates (PostgreSQL after its full-text query narrowed them; the
 * memory store). Same scoring, ranking and snippets as every store.
 */
import type { SessionSummary } from '../session/api/listing.js';
import { foldQuery } from './fold.js';
import { countHits, rank, score, toResult, type SearchableMessage, type Scored } from './rank.js';
import type { SearchResults } from '../session/api/search-data.js';

export function searchMessages(
  query: string,
  sessions: readonly { summary: SessionSummary; messages: readonly SearchableMessage[] }[],
  limit = 20,
): Omit<SearchResults, 'index'> {
  const q = foldQuery(query);
  const found: { scored: Scored; messages: readonly SearchableMessage[] }[] = [];
  for (const { summary, messages } of sessions) {
    const scored = score(summary, q.folded, countHits(messages, q.folded));
    if (scored) found.push({ scored: { ...scored, session: summary }, messages });
  }
  const messagesOf = new Map(found.map((f) => [f.scored, f.messages]));
  const results = rank(found.map((f) => f.scored), limit).map((s) => toResult(s, q.folded, s.best && messagesOf.get(s)![s.best.message]));
  return { query: q.text, total: found.length, results };
}
