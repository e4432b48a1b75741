/**
 * The listing's SQL, and the function on the server that runs it by a plan kept per connection
 * (kept-plan.ts).
 *
 * Row security makes a member's listing expensive to plan, not to run: every policy on every
 * table the query touches (sessions, shares, holders, lock_keys, events) is expanded into it:
 * 2.5–4 ms of planning against 1 ms of running, on a quiet machine, when it was sent as text.
 * `chatkeep.listing` plans it once per server connection, generically (for any keys), and keeps
 * the plan: a listing on a connection that listed before is not planned again.
 */
import { ADVISORY_HELD_LISTED, HELD_IDS_SQL, HELD_KEYS_SQL, LEASED_SQL } from './lock.js';
import { SEES_ALL_CALL, visibleSessions } from './listing-index.js';
import { LAST_EVENT_SEQ } from './event-log.js';
import { keptPlanFunction } from './kept-plan.js';

/**
 * The status as the file store tells it (docs/design.md §5): `open` while a connection holds the lock;
 * `interrupted` when left open, by a holder that died (its row outlives its lock), or with
 * events past the snapshot; else as saved. CASE stops at the first answer: the events index is
 * probed only for sessions saved as closed with no holder.
 */
const LIVE_STATUS_SQL = `CASE WHEN ${ADVISORY_HELD_LISTED('held', 'held_ids')} OR ${LEASED_SQL} THEN 'open'
  WHEN h.session_id IS NOT NULL OR s.status <> 'closed' THEN 'interrupted'
  WHEN ${LAST_EVENT_SEQ('s.id')} > s.journal_seq THEN 'interrupted'
  ELSE 'closed' END`;

/**
 * A time as epoch milliseconds, which is what a listing row keeps: node-postgres reads a float8
 * with parseFloat instead of building a Date per row to be turned back into a number.
 */
const EPOCH_MS = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * A listing of the projects whose keys are `$1`, newest first, of the sessions the role asking
 * sees (listing-index.ts); with `newest` (a parameter's name, e.g. `$2`; NULL there means all),
 * only that many, the newest of the projects together. Everything else it reads is read per listed
 * session, by key, so that it costs what the reader lists, not what the server holds: the holder
 * row (a lateral lookup, never a join the planner could turn into a scan of every holder), the
 * last event (the events index, backwards), and whether the session's lock is held (the few held
 * keys looked up in `lock_keys` once, HELD_IDS_SQL). Row security checks each row so read by its
 * key; a join to a whole table would check every row of it (docs/design.md §9). The newest rows
 * are chosen first, in a subquery, so that nothing is looked up for a row the limit drops; over
 * one project the member's rows come off `sessions_by_project_owner` in order, and the scan stops
 * at the limit. `seesAll`: whether the role asking sees every row, where the caller knows it
 * (listing-index.ts). `ids` (a parameter's name, with no `newest`): only the sessions of those
 * IDs, each looked up by its primary key alone (a lateral subquery per ID, kept apart by OFFSET 0),
 * its row passed or not by row security, which lets through what the listing's branches read. In
 * branches, a generic plan read the admin's by owner and filtered by ID, where its estimate of the
 * owners below the role asking was low (with `id = ANY`, or the subquery pulled up into a join, too).
 */
export const listSql = ({ newest, seesAll, ids }: { newest?: string; seesAll?: string; ids?: string } = {}): string => {
  const sessions = ids !== undefined
    ? `(SELECT v.* FROM (SELECT DISTINCT unnest(${ids}::text[]) AS id) w,
        LATERAL (SELECT * FROM chatkeep.sessions x WHERE x.id = w.id OFFSET 0) v)`
    : newest === undefined
    ? visibleSessions(undefined, undefined, seesAll)
    : `(SELECT n.* FROM (SELECT DISTINCT unnest($1::text[]) AS key) k, LATERAL (SELECT * FROM ${visibleSessions('project_key = k.key AND trashed_at IS NULL', newest, seesAll)} v
        ORDER BY v.updated_at DESC LIMIT ${newest}) n)`;
  return `WITH held AS MATERIALIZED (${HELD_KEYS_SQL}), held_ids AS MATERIALIZED (${HELD_IDS_SQL('held')})
  SELECT s.id, s.title, ${EPOCH_MS('s.created_at')} AS created_at, ${EPOCH_MS('s.updated_at')} AS updated_at, s.message_count,
    ${LIVE_STATUS_SQL} AS live, s.project_path, s.journal_seq::float8 AS journal_seq, s.input_tokens::float8 AS input_tokens,
    s.output_tokens::float8 AS output_tokens, s.branch, s.by_model, s.problem, s.schema_version, s.parent_id, s.fork_point,
    CASE WHEN s.owner <> current_user THEN s.owner END AS shared_by,
    s.title_source, s.archived_messages
  FROM ${sessions} s
    LEFT JOIN LATERAL (SELECT h.session_id, h.backend_pid, h.expires_at FROM chatkeep.holders h WHERE h.session_id = s.id OFFSET 0) h ON true
  WHERE s.project_key = ANY($1) AND s.trashed_at IS NULL
  ORDER BY s.updated_at DESC`;
};

/** Every row of the projects `$1`. */
export const LIST_SQL = listSql();

/**
 * The listing `chatkeep.listing` runs: at most `$2` rows (all when NULL), `sees_all` its variable
 * (LISTING_ASKS_ONCE_MIGRATION).
 */
export const LISTING_SQL = listSql({ newest: '$2', seesAll: 'sees_all' });

/**
 * The listing by the server's function (its columns are LIST_SQL's, its order re-stated: a
 * function's rows have none by contract); `$2` the newest how many, NULL for all.
 */
export const LISTED_SQL = 'SELECT * FROM chatkeep.listing($1, $2) ORDER BY updated_at DESC';

/** The columns `chatkeep.listing` returns: LIST_SQL's, by name and type (search-results.ts adds its own to them). */
export const LISTING_COLUMNS = `id text, title text, created_at float8, updated_at float8,
      message_count integer, live text, project_path text, journal_seq float8, input_tokens float8, output_tokens float8,
      branch text, by_model jsonb, problem jsonb, schema_version integer, parent_id text, fork_point integer, shared_by text,
      title_source text, archived_messages integer`;

/**
 * The migration that creates `chatkeep.listing`, from this build's LIST_SQL (`$1` is the
 * function's first argument). A build that changes LIST_SQL replaces the function by a migration
 * of its own: a test compares the server's function with LIST_SQL.
 */
export const LISTING_FUNCTION_MIGRATION = keptPlanFunction({
  name: 'chatkeep.listing', args: 'keys text[]', columns: LISTING_COLUMNS, body: `RETURN QUERY ${LIST_SQL};`, tag: 'listing',
});

/**
 * The migration that gives `chatkeep.listing` a limit, `newest` (NULL: every row), so that a
 * listing of a screenful reads that many rows, not the project's every row (LISTING_SQL). The
 * function of one argument goes: a build that calls it is older than this schema, and refused.
 * The plan stays generic, the limit a parameter: PostgreSQL plans for a tenth of the rows, which
 * keeps the index scans that return the rows in order, for a whole listing too.
 */
export const LISTING_NEWEST_MIGRATION = `
  DROP FUNCTION chatkeep.listing(text[]);${keptPlanFunction({
  name: 'chatkeep.listing', args: 'keys text[], newest integer', columns: LISTING_COLUMNS, body: `RETURN QUERY ${listSql({ newest: '$2' })};`, tag: 'listing',
})}`;

/**
 * The migration that has `chatkeep.listing` ask once per call whether the role asking sees every
 * row, into a variable that its query reads as a parameter. Written as a subquery, the question
 * was an init plan in each of the three branches that need it (listing-index.ts), each running
 * both functions of SEES_ALL_CALL: about a fifth of the server's CPU time for a member's newest
 * 50 (docs/internals.md, "The listing's fixed cost"). The answer is the same: the same
 * functions, asked in the same statement's snapshot by the same role.
 */
export const LISTING_ASKS_ONCE_MIGRATION = keptPlanFunction({
  create: 'CREATE OR REPLACE', name: 'chatkeep.listing', args: 'keys text[], newest integer', columns: LISTING_COLUMNS,
  declare: `sees_all boolean := ${SEES_ALL_CALL};`, body: `RETURN QUERY ${LISTING_SQL};`, tag: 'listing',
});

/**
 * The listing rows of the sessions `$2` of the projects `$1`, which `chatkeep.listing_of` runs:
 * search's rows for the sessions it found (search.ts).
 */
export const LISTING_OF_SQL = listSql({ ids: '$2' });

/**
 * The listing rows by `chatkeep.listing_of`, in any order: `$1` the project keys, `$2` the IDs. What
 * the build of schema 21–24 called for search's rows; this build reads them with the snippets'
 * messages by `chatkeep.search_results` (search-results.ts), and its tests call this one.
 */
export const LISTED_OF_SQL = 'SELECT * FROM chatkeep.listing_of($1, $2)';

/**
 * The migration that creates `chatkeep.listing_of` from LISTING_OF_SQL. Sent as text, that query
 * was planned on every search, row security and all: 24–32 ms of planning against 1–2 ms of
 * running for a member's 20 results (docs/internals.md). A build that changes the query replaces
 * the function by a migration of its own: a test compares the server's function with it.
 */
export const LISTING_OF_MIGRATION = keptPlanFunction({
  name: 'chatkeep.listing_of', args: 'keys text[], ids text[]', columns: LISTING_COLUMNS, body: `RETURN QUERY ${LISTING_OF_SQL};`, tag: 'listing_of',
});
