/**
 * The titles and IDs of one search index file as one buffer, so that a query finds the sessions
 * whose title or ID holds it with one `Buffer.indexOf` scan, as messages are found, instead of
 * a test per session. Per session: its folded title, NUL, its ID lowercased (IDs are ASCII), NUL;
 * no folded query holds NUL, so a match never spans two parts. Stored so in the file (session-table.ts).
 */
import type { LoadedIndex } from './search-index-file.js';
import { lastAtOrBelow } from './word-index.js';

/** The sessions (by position) whose title or ID holds `needle`, each once (an empty query is in every ID). */
export function nameMatches(index: LoadedIndex, needle: Buffer): number[] {
  if (needle.length === 0) return Array.from({ length: index.sessions.count }, (_, i) => i);
  const { text, starts } = index.sessions.names;
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; ) {
    const session = lastAtOrBelow(starts, at);
    out.push(session);
    at = text.indexOf(needle, starts[session + 1]!);
  }
  return out;
}
