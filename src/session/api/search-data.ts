/**
 * What a full-text search returns (the library's `SessionManager.search`, `sessions search --json`):
 * plain data beside the listing rows it holds; src/search/ computes it.
 */
import type { Role } from './data.js';
import type { SessionSummary } from './listing.js';

/** The snippet shown for a search result: a window of one message around a hit (src/search/snippet.ts). */
export interface Snippet {
  /** One line: whitespace runs shown as one space; `…` where the message goes on. */
  text: string;
  /** `[start, end)` UTF-16 offsets into `text` of each hit shown. */
  highlights: [number, number][];
}

export interface SearchOptions {
  /** Every project, not just this one. */
  all?: boolean;
  /** At most this many sessions, best first (default 20; 0: all). */
  limit?: number;
  /**
   * false: the results without their snippets, for a caller that shows only which sessions
   * matched (the session browser, at every keystroke): the file store then reads no message's
   * original text and segments none. Default true. A store may make them anyway.
   */
  snippets?: boolean;
}

/** The message a result's snippet comes from. */
export interface SearchSnippet extends Snippet {
  /** Its position in the session: archived messages (cleared by `/reset`) first, then the live ones, from 0. */
  message: number;
  role: Role;
  timestamp: Date;
  /** Cleared by `/reset` (kept inside the session, not in the live conversation). */
  archived: boolean;
}

/** One session that matched. */
export interface SearchResult {
  session: SessionSummary;
  /** Occurrences of the query in the title and the messages (archived ones included). */
  hits: number;
  /** Where it matched. */
  matched: { id: boolean; title: boolean; messages: number };
  /** Around the first hit of the message with the most hits (the latest of equals); absent when only the ID or title matched. */
  snippet?: SearchSnippet;
}

/** What the search had to do to its index first (the file store keeps one per project). */
export interface SearchIndexReport {
  project: string;
  /** `fresh`: used as it was; `missing`/`damaged`: built anew; `stale`: sessions changed since it was built were indexed again. */
  state: 'fresh' | 'missing' | 'damaged' | 'stale';
  /** Sessions read to bring it up to date. */
  reindexed: number;
  /** What was wrong with a damaged index. */
  detail?: string;
}

export interface SearchResults {
  /** The query as given (trimmed). */
  query: string;
  /** Sessions that matched (`results` holds the first `limit` of them). */
  total: number;
  results: SearchResult[];
  index: SearchIndexReport[];
}
