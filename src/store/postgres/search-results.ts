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
 * lookup per row, checked by that table's read policy as before.
 */
import { LISTING_COLUMNS, LISTING_OF_SQL } from './listing-sql.js';
import { keptPlanFunction } from './kept-plan.js';

/**
 * The listing rows of the sessions `$2` of the projects `$1` (LISTING_OF_SQL's columns, in any
 * order), each with the message numbered `$3[i]` of the session `$2[i]` (NULL: none wanted) as
 * `best_role`, `best_at`, `best_archived`, `best_content` (NULL where none is wanted or readable).
 */
export const SEARCH_RESULTS_SQL = `SELECT l.*, m.role AS best_role, m.at AS best_at, m.archived AS best_archived, m.content AS best_content
  FROM (${LISTING_OF_SQL}) l
    LEFT JOIN LATERAL (SELECT w.n FROM unnest($2::text[], $3::int[]) AS w(id, n) WHERE w.id = l.id LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
      WHERE m.session_id = l.id AND m.n = w.n OFFSET 0) m ON true`;

/** The results by the server's function: `$1` the project keys, `$2` the IDs, `$3` each one's message (or NULL). */
export const SEARCHED_RESULTS_SQL = 'SELECT * FROM chatkeep.search_results($1, $2, $3)';

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
