/**
 * The results of a search on PostgreSQL (search.ts), once the match (search-match.ts) has found
 * and ranked them: each result's listing row and the message its snippet comes from, in one
 * statement, by a server function whose plan each connection keeps (kept-plan.ts).
 *
 * They were two statements, the listing rows (`chatkeep.listing_of`) and then the snippets'
 * messages, sent as text: a round trip more for every search, and the snippets' query, under row
 * security, planned on each (most of its 0.5–0.8 ms of the server's CPU). The listing rows are
 * LISTING_OF_SQL's, each ID looked up by its primary key and let through by row security as the
 * listing's branches are; each one's message by the primary key of `search_messages`, a lateral
 * lookup per row, checked by that table's read policy as before. Since schema 32 it also finds the
 * best message of each shown session whose hits the match counted from its blocks without one
 * (search-hits.ts); since schema 35 it plans that only where one is to be found.
 */
import { LISTING_COLUMNS, LISTING_OF_SQL } from './listing-sql.js';
import { keptPlanFunction } from './kept-plan.js';
import { bestOf } from './search-hits.js';
import { SEARCH_MATCH_BEST_SHOWN } from './search-match.js';

/**
 * The listing rows of the sessions `$2` of the projects `$1` (LISTING_OF_SQL's columns, in any
 * order), each with the message numbered `$3[i]` of the session `$2[i]` (NULL: none wanted) as
 * `best_role`, `best_at`, `best_archived`, `best_content` (NULL where none is wanted or readable).
 */
export const SEARCH_RESULTS_SQL = resultsSql('');

/** SEARCH_RESULTS_SQL with `before` (columns, each followed by `, `) ahead of the message's columns. */
function resultsSql(before: string): string {
  return `SELECT l.*, ${before}m.role AS best_role, m.at AS best_at, m.archived AS best_archived, m.content AS best_content
  FROM (${LISTING_OF_SQL}) l
    LEFT JOIN LATERAL (SELECT w.n FROM unnest($2::text[], $3::int[]) AS w(id, n) WHERE w.id = l.id LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
      WHERE m.session_id = l.id AND m.n = w.n OFFSET 0) m ON true`;
}

/**
 * SEARCH_RESULTS_BEST_SQL's columns where no best message is to be found (`$5` holds no true, as a
 * rare word's results and every keystroke's have it): SEARCH_RESULTS_SQL's rows, `best` and
 * `best_hits` NULL, without the best message's laterals, whose plan (a count from each session's
 * blocks or rows, under every policy) was set up on each call for nothing (~0.1 ms of the member's
 * backend CPU a search at 10,000 sessions: docs/internals.md).
 */
export const SEARCH_RESULTS_NONE_FOUND_SQL = resultsSql('NULL::integer AS best, NULL::integer AS best_hits, ');

/**
 * SEARCH_RESULTS_SQL's rows, and where `$5[i]` is true, the best message of the session `$2[i]`
 * for the folded query `$4`, found here as the match finds it (search-hits.ts, `bestOf`): its
 * number and hits as `best` and `best_hits`, and the message itself as the others'. The match
 * counts a common word's hits from the blocks of every session a searcher may read (~10,000 at
 * 1,000,000 sessions) and leaves their best message to this, for the ~20 a search shows. The
 * message's number is a subquery's of its own (`k`), so that the message is read by its key: in
 * the message's condition, `coalesce(w.n, b.best)` was a filter on each of the session's messages.
 */
export const SEARCH_RESULTS_BEST_SQL = `SELECT l.*, b.best, b.best_hits, m.role AS best_role, m.at AS best_at, m.archived AS best_archived, m.content AS best_content
  FROM (${LISTING_OF_SQL}) l
    LEFT JOIN LATERAL (SELECT w.n, w.find FROM unnest($2::text[], $3::int[], $5::boolean[]) AS w(id, n, find) WHERE w.id = l.id LIMIT 1) w ON true
    LEFT JOIN LATERAL (${bestOf('l.id', '$4', 'w.find')}) b ON true
    CROSS JOIN LATERAL (SELECT coalesce(w.n, b.best) AS n OFFSET 0) k
    LEFT JOIN LATERAL (SELECT m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
      WHERE m.session_id = l.id AND m.n = k.n OFFSET 0) m ON true`;

/** `chatkeep.search_results`' arguments and columns since schema 32. */
const RESULTS_ARGS = 'keys text[], ids text[], ns integer[], folded text, find boolean[]';
const RESULTS_COLUMNS = `${LISTING_COLUMNS}, best integer, best_hits integer, best_role text, best_at float8, best_archived boolean, best_content json`;

/**
 * The results by the server's function: `$1` the project keys, `$2` the IDs, `$3` each one's
 * message (or NULL), `$4` the folded query, `$5` whether to find each one's best message.
 */
export const SEARCHED_RESULTS_SQL = 'SELECT * FROM chatkeep.search_results($1, $2, $3, $4, $5)';

/**
 * The migration that creates `chatkeep.search_results` from SEARCH_RESULTS_SQL. A build that
 * changes the query replaces the function by a migration of its own: a test compares the server's
 * function with it.
 */
export const SEARCH_RESULTS_MIGRATION = keptPlanFunction({
  name: 'chatkeep.search_results', args: 'keys text[], ids text[], ns integer[]',
  columns: `${LISTING_COLUMNS}, best_role text, best_at float8, best_archived boolean, best_content json`,
  body: `RETURN QUERY ${SEARCH_RESULTS_SQL};`, tag: 'search_results',
});

/**
 * `chatkeep.search_match` replaced by this build's, which leaves a best message to the results
 * where it would cost a count of its own (search-match.ts), and `chatkeep.search_results` made from
 * SEARCH_RESULTS_BEST_SQL, which finds those: one migration, since each build reads both. The
 * results' arguments and columns change, which only a new function can do.
 */
export const SEARCH_BEST_SHOWN_MIGRATION = `${SEARCH_MATCH_BEST_SHOWN}
  DROP FUNCTION chatkeep.search_results(text[], text[], integer[]);${keptPlanFunction({
  name: 'chatkeep.search_results', args: RESULTS_ARGS, columns: RESULTS_COLUMNS,
  body: `RETURN QUERY ${SEARCH_RESULTS_BEST_SQL};`, tag: 'search_results',
})}`;

/**
 * `chatkeep.search_results` replaced by this build's, which runs SEARCH_RESULTS_BEST_SQL only where a
 * best message is to be found, SEARCH_RESULTS_NONE_FOUND_SQL otherwise (each planned where it runs).
 */
export const SEARCH_RESULTS_FOUND_ONLY_MIGRATION = keptPlanFunction({
  create: 'CREATE OR REPLACE', name: 'chatkeep.search_results', args: RESULTS_ARGS, columns: RESULTS_COLUMNS,
  body: `IF true = ANY(find) THEN
        RETURN QUERY ${SEARCH_RESULTS_BEST_SQL};
      ELSE
        RETURN QUERY ${SEARCH_RESULTS_NONE_FOUND_SQL};
      END IF;`,
  tag: 'search_results',
});
