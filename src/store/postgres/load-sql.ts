/**
 * What a resume reads (reading.ts): a session's snapshot (part 0), events (1, by seq) and
 * quarantined parts (2), as one statement. A statement reads one snapshot of the database, so a
 * save in between cannot split them, with no transaction around three queries (five round trips).
 *
 * The statement is the server's function `chatkeep.load_session`, whose plan each server
 * connection keeps (kept-plan.ts), as the listing's and the pooled append's are: sent as SQL it
 * was planned on every resume, under row security on three tables (~1 ms of server CPU, more than
 * running it; docs/internals.md, "Resume").
 */
import { keptPlanFunction } from './kept-plan.js';

/** The statement, as the function's body holds it (`$1`: the session's ID). */
export const LOAD_SQL = `SELECT 0 AS part, NULL::bigint AS seq, s.created_at AS ts, NULL::text AS type, s.snapshot AS payload
    FROM chatkeep.sessions s WHERE s.id = $1
  UNION ALL SELECT 1, e.seq, e.ts, e.type, e.payload::text FROM chatkeep.events e WHERE e.session_id = $1
  UNION ALL SELECT 2, q.n, NULL, NULL, NULL FROM chatkeep.quarantine q WHERE q.session_id = $1
  ORDER BY 1, 2`;

/**
 * The migration that creates `chatkeep.load_session` from LOAD_SQL. A build that changes
 * LOAD_SQL replaces the function by a migration of its own (a test compares the server's
 * function with LOAD_SQL). The plan stays generic: the ID is the only parameter, and
 * each part is a probe of a primary key (quarantine's few rows aside).
 */
export const LOAD_FUNCTION_MIGRATION = keptPlanFunction({
  name: 'chatkeep.load_session', args: 'id text', columns: 'part integer, seq bigint, ts timestamptz, type text, payload text',
  body: `RETURN QUERY ${LOAD_SQL};`, tag: 'load',
});

/** A session's parts through the function, in LOAD_SQL's order (said again: SQL promises no order of a function's rows). */
export const LOADED_SQL = 'SELECT * FROM chatkeep.load_session($1) ORDER BY 1, 2';
