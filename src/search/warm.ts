/**
 * How long a process keeps what its searches warmed while unused: the file store's index files
 * read into memory (search-index-cache.ts), a PostgreSQL connection of the pool, whose backend has
 * planned the match and cached the catalog (connect.ts). The session browser searches at each
 * keystroke and a person pauses between searches; a search after the warm state is let go pays
 * for it again (on PostgreSQL a login, new catalog caches and the match planned: about three times
 * a warm search, docs/internals.md "The pool's idle connections kept a minute").
 */
export const WARM_KEEP_MS = 60_000;
