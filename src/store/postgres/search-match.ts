/**
 * The match query of a search on PostgreSQL (search.ts), and the function on the server that runs
 * it by a plan kept per connection (docs/design.md §18).
 *
 * Row security makes a member's search, like a listing (listing-sql.ts), expensive to plan: the
 * policies of `sessions`, `shares`, `events`, `search_sessions` and `search_messages` are expanded
 * into every branch of the query, which PostgreSQL planned anew on each call when it was sent as
 * text (8–14 ms of planning under load, beside a floor of two small SELECTs). `chatkeep.search_match`
 * is a PL/pgSQL function whose queries (one per narrowing, each planned only where it runs) are
 * planned once per server connection, generically (for any keys and any word), and kept, behind a
 * transaction-pooling pooler too, where a named prepared statement would not survive. It runs as
 * whoever calls it (not SECURITY DEFINER): the same policies, checked by the same plan.
 *
 * A generic plan cannot be chosen for the word, and does not need to be: what depends on how common
 * the word is, the index or session by session (search-path.ts), is decided when the query runs,
 * by a one-time filter on each of the two branches, never by the planner.
 */
import { bySessionSql, type SampledFrom } from './search-path.js';
import { SEARCH_LIKE_SETTING } from './search-narrowing.js';
import { SEES_ALL_CALL } from './listing-index.js';
import { LAST_EVENT_SEQ } from './event-log.js';
import { SEARCHER } from './search-owner.js';
import { keptPlanFunction } from './kept-plan.js';
import { SEARCH_BLOCKS_MIGRATION } from './search-blocks.js';
import { bySessionBranch, HITS_IN, keptBy, PACK, type SessionHits } from './search-hits.js';
import { SEEN, type EverySession, type Seer } from './search-every-session.js';
import { coverageSql, SEARCH_COVERAGE_MIGRATION, type Coverage } from './search-coverage.js';

/** How the server narrows: a trigram index (`pg_trgm`), or the core tsvector of sequences. */
export type Narrowing = 'trgm' | 'grams';

/** One matching (or not covered) session: `$1` project keys, `$2` the folded query, `$3` the narrowing's argument. */
export interface MatchRow {
  id: string;
  project_key: string;
  project_path: string;
  updated_at: number;
  hits: number | null;
  /** The message with the most hits, and its hits: NULL where the match did not find it (search-hits.ts, `bestShown`). */
  best: number | null;
  best_hits: number | null;
  title_hits: number;
  /** The title as listed, where the rows' folded title does not say it (changed since, or not covered). */
  title: string | null;
  title_stale: boolean;
  /** The snapshot was written without rows: read and indexed now (`version`: its snapshot version). */
  stale: boolean;
  version: string;
  /** Events past the rows' last: read and searched in memory. */
  pending: boolean;
}

/**
 * Messages holding `$2`: with a trigram index, `LIKE` is exact on its own; the sequences' tsvector
 * finds a superset; with neither (`none`), `strpos`. A session's own messages are never matched
 * by `LIKE`, which an index could serve: each session's read stays on its primary key (with `LIKE`
 * there, the single user's search for a word in every message of 2,000 sessions, right after they
 * were written, ran past the 15 s query timeout: an index of the word's candidates per session, it
 * seems; the plan was not caught), and took 0.6 s with `strpos`. SESSION_HITS (search-hits.ts) says how each is counted.
 */
const HOLDS: Record<Narrowing | 'none', string> = {
  trgm: 'm.folded LIKE $3',
  grams: 'strpos(m.folded, $2) > 0 AND (m.grams @@ $3::tsquery OR m.grams IS NULL)',
  none: 'strpos(m.folded, $2) > 0',
};

const COVERAGE = coverageSql(HITS_IN);

/**
 * Every session of the projects `$1` that holds `$2` (the folded query; `$3` the narrowing's
 * argument) in its ID, title or messages, or that its rows do not cover. Per session: hits
 * (non-overlapping, as `countOccurrences`), and the message with the most (the latest of equals)
 * where the hits' branch finds it on its way (before `bestShown`, everywhere: search-hits.ts).
 * The hits are computed once (MATERIALIZED), whatever the planner thinks of their number, by one
 * of two branches, the other never run (its gate is a one-time filter): through the narrowing
 * index, or session by session (search-path.ts).
 *
 * The sessions (`vis`) by one of three branches, gated the same way. A role that sees only its
 * own and shared sessions reads its own sessions and their search facts by owner, each over an
 * index and joined whole (each search fact passing row security by its `owner`: search-owner.ts);
 * and each session shared with it, and its search facts, by key, one lookup per share (a lateral
 * subquery, which no setting or estimate turns into a scan: joined whole, the shared sessions
 * and their facts were a scan of every other member's, 305,000 buffers and ~2 s for a member of
 * three shares at 100,000 sessions); each session's last event by key. A join to every search
 * fact would have row security check every row of the server. A role that sees every session
 * reads the sessions of the projects asked for, and each one's search facts and last event by key
 * too (EVERY_SESSION). Since schema 33 (`flagged`) whether a session's rows cover it is read off
 * its own row, and the facts only of the few they do not cover (COVERAGE, search-coverage.ts);
 * since schema 36 (`tails`) whether it has events past its rows from the events table, read once
 * where it has no page or the reader has no row security and it holds fewer rows than the sessions
 * (search-pending.ts), not by a probe per session.
 */
export const matchSql = (
  narrowing: Narrowing | undefined,
  everySession: EverySession = 'byProjectAskedOnce',
  sessionHits: SessionHits = 'bestShown',
  sampled: SampledFrom = 'blocks',
  coverage: Coverage = 'tails',
  seer: Seer = 'given',
): string => `WITH ${COVERAGE[coverage].vis(everySession, seer)}by_session AS MATERIALIZED (${bySessionSql(narrowing !== undefined, sampled, COVERAGE[coverage].messages)}),
  hits AS MATERIALIZED (
    SELECT x.session_id, sum(x.hits)::int AS hits, max(x.hits::bigint * ${PACK} + x.n) AS best
    FROM (SELECT m.session_id, m.n, ${HITS_IN('m.folded')} AS hits FROM chatkeep.search_messages m
      WHERE $2 <> '' AND NOT (SELECT yes FROM by_session) AND ${HOLDS[narrowing ?? 'none']}) x
    GROUP BY x.session_id
    UNION ALL
    ${bySessionBranch(sessionHits)}
    WHERE $2 <> '' AND (SELECT yes FROM by_session) AND ${keptBy(sessionHits)})
  SELECT s.id, s.project_key, s.project_path, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_at, h.hits, (h.best % ${PACK})::int AS best, (h.best / ${PACK})::int AS best_hits,
    ${COVERAGE[coverage].columns},
    s.snapshot_version::text AS version
  FROM ${COVERAGE[coverage].from} LEFT JOIN hits h ON h.session_id = s.id
  WHERE h.session_id IS NOT NULL OR strpos(lower(s.id), $2) > 0
    OR ${COVERAGE[coverage].where}`;

/**
 * This build's match as a statement of its own, outside `chatkeep.search_match` (whose variable
 * SEEN matchSql reads): it asks whether the role sees every session itself. For EXPLAIN in tests.
 */
export const matchStatement = (narrowing: Narrowing | undefined): string => matchSql(narrowing, undefined, undefined, undefined, undefined, 'asked');

/**
 * The settings the match query runs with. Hash joins and hash aggregation whatever the statistics
 * say: right after a bulk write, before autovacuum has counted the rows, the planner takes the
 * tables for nearly empty and joins 10,000 sessions to their hits by nested loops, or sorts
 * 200,000 hits on disk to group them (seconds for a common word). Memory for the hash tables of
 * every hit of a common word; no JIT: compiling that plan would cost more than running it. (The
 * plan generic, made once per connection and kept: kept-plan.ts.) Not `chatkeep.search_like` (search-narrowing.ts):
 * PostgreSQL lets only a superuser name a setting no module defines in a function's SET, and a
 * team's schema owner is none; the function puts the pattern back itself (SEARCH_MATCH_FUNCTION_MIGRATION).
 */
const MATCH_SETTINGS = `SET enable_nestloop = off SET enable_sort = off
    SET work_mem = '64MB' SET jit = off`;

/**
 * No sequential scan where an index serves, for a role that sees every session only (schema 28
 * on): its projects' sessions by the index that holds their key (EVERY_SESSION's `byProject`),
 * whatever the first call's statistics say (a scan fetched each session's key from TOAST to
 * compare it). Not for a member: with scans off everywhere, a member's search of a word in nearly
 * every message of her own project's adopted sessions took 690–780 ms against 18–29 with them
 * allowed (10,000 sessions, the scale bench's data; docs/internals.md, "Search's match: a single
 * user's sessions by the index on the project"). The role is a connection's for its life, so the
 * plan each connection keeps is made under the setting its role gets; the function's own `SET`
 * keeps the change inside the call.
 */
const byProjectScans = (seesAll: string): { settings: string; body: string } => ({
  settings: ' SET enable_seqscan = on',
  body: `IF ${seesAll} THEN
        PERFORM set_config('enable_seqscan', 'off', true);
      END IF;
      `,
});
const BY_PROJECT_SCANS = byProjectScans(SEES_ALL_CALL);

/** The columns `chatkeep.search_match` returns: matchSql's, by name and type (MatchRow). */
const MATCH_COLUMNS = `id text, project_key text, project_path text, updated_at float8, hits integer, best integer, best_hits integer,
      title_hits integer, title_stale boolean, stale boolean, pending boolean, title text, version text`;

/**
 * The match by the server's function: `$1` the project keys, `$2` the folded query, `$3` the
 * narrowing's argument and `$4` the narrowing (both NULL for a query the index cannot narrow).
 */
export const MATCHED_SQL = 'SELECT * FROM chatkeep.search_match($1, $2, $3, $4)';

/**
 * The migration that creates `chatkeep.search_match` from this build's matchSql, one query per
 * narrowing (`$1`…`$3` are the function's first three arguments). With `pg_trgm`, the pattern is
 * set for the trigram policy first (search-narrowing.ts), inside the function, so that the search is
 * one statement, one round trip, and put back as it was once the query has run: it narrows the
 * function's own query only (an error rolls it back with the caller's transaction or savepoint). A build that changes matchSql replaces the function by a
 * migration of its own: a test compares the server's function with matchSql.
 */
export const SEARCH_MATCH_FUNCTION_MIGRATION = searchMatchFunction('CREATE', 'joinedWhole', 'filtered');

/** `chatkeep.search_match` replaced by schema 22's, whose role that sees every session reads by key (EVERY_SESSION). */
export const SEARCH_MATCH_BY_KEY_MIGRATION = searchMatchFunction('CREATE OR REPLACE', 'byKey', 'filtered');

/** `chatkeep.search_match` replaced by schema 23's, which counts each message's hits in one pass (search-hits.ts). */
export const SEARCH_MATCH_COUNTED_ONCE_MIGRATION = searchMatchFunction('CREATE OR REPLACE', 'byKey', 'countedOnce');

/**
 * The messages' blocks (search-blocks.ts), made from every message row, and `chatkeep.search_match`
 * replaced by this build's, which counts a session's hits from them (search-hits.ts).
 */
export const SEARCH_MATCH_BLOCKS_MIGRATION = `${SEARCH_BLOCKS_MIGRATION}${searchMatchFunction('CREATE OR REPLACE', 'byKey', 'blocks')}`;

/**
 * `chatkeep.search_match` replaced by this build's, whose role that sees every session reads its
 * projects' sessions by the index on the project, and their facts hashed where they are most of the server's (EVERY_SESSION).
 */
export const SEARCH_MATCH_BY_PROJECT_MIGRATION = searchMatchFunction('CREATE OR REPLACE', 'byProject', 'blocks', BY_PROJECT_SCANS);

/**
 * `chatkeep.search_match` replaced by this build's, which asks once per call whether its role sees
 * every session, where schema 28's asked in each branch of `vis` (search-every-session.ts, SEER).
 */
export const SEARCH_MATCH_ASKS_ONCE_MIGRATION = searchMatchFunction('CREATE OR REPLACE', 'byProjectAskedOnce', 'blocks', BY_PROJECT_SCANS);

/**
 * `chatkeep.search_match` replaced by this build's, whose sample that picks the hits' path counts
 * from the sampled sessions' blocks, where a member's kept plan could AND each one's key with the
 * trigram index over its message rows (search-path.ts, SAMPLED).
 */
export const SEARCH_MATCH_SAMPLED_FROM_BLOCKS_MIGRATION = searchMatchFunction('CREATE OR REPLACE', 'byProjectAskedOnce', 'blocks', BY_PROJECT_SCANS, 'blocks');

/**
 * `chatkeep.search_match` replaced by this build's, which counts the hits alone from a session's
 * blocks and gives its best message only where it comes free (search-hits.ts, `bestShown`): the
 * results find the rest for the sessions shown. Part of SEARCH_BEST_SHOWN_MIGRATION
 * (search-results.ts), which replaces both functions at once: each build reads both.
 */
export const SEARCH_MATCH_BEST_SHOWN = searchMatchFunction('CREATE OR REPLACE', 'byProjectAskedOnce', 'bestShown', BY_PROJECT_SCANS, 'blocks');

/**
 * The columns on each session's row that say whether its search rows cover it, filled from its
 * search facts, and `chatkeep.search_match` replaced by this build's, which reads them there and
 * the facts only of the sessions they do not cover (search-coverage.ts), counting a common word's
 * hits as SEARCH_MATCH_BEST_SHOWN does.
 */
export const SEARCH_MATCH_FLAGGED_MIGRATION = `${SEARCH_COVERAGE_MIGRATION}${searchMatchFunction('CREATE OR REPLACE', 'byProjectAskedOnce', 'bestShown', BY_PROJECT_SCANS, 'blocks', 'flagged')}`;

/**
 * `chatkeep.search_match` replaced by this build's, which asks once per call whether its role sees
 * every session, in its body, and gives the answer to the query's `seer` (search-every-session.ts,
 * SEERS), where schema 33's asked in its body and again in the query.
 */
export const SEARCH_MATCH_SEEN_ONCE_MIGRATION = searchMatchFunction(
  'CREATE OR REPLACE', 'byProjectAskedOnce', 'bestShown', byProjectScans(SEEN), 'blocks', 'flagged', 'given',
);

/**
 * `chatkeep.search_match` replaced by this build's, which knows which sessions have events past
 * their rows from one read of the events table where that costs less than a probe per session
 * (search-pending.ts says when), where schema 34's probed each session's last event, and reads a
 * session's search facts, where it needs them, as one value (search-coverage.ts, `tails`). Same
 * arguments, same columns: another function may wrap it.
 */
export const SEARCH_MATCH_TAILS_MIGRATION = searchMatchFunction(
  'CREATE OR REPLACE', 'byProjectAskedOnce', 'bestShown', byProjectScans(SEEN), 'blocks', 'tails', 'given',
);

function searchMatchFunction(
  create: 'CREATE' | 'CREATE OR REPLACE',
  everySession: EverySession,
  sessionHits: SessionHits,
  scans?: { settings: string; body: string },
  sampled: SampledFrom = 'messages',
  coverage: Coverage = 'joined',
  seer: Seer = 'asked',
): string {
  // `given`: the body asks once, for its scans and for the query's `seer` (SEEN).
  const seen = seer === 'given' ? `\n      ${SEEN} boolean := ${SEES_ALL_CALL};` : '';
  return keptPlanFunction({
    create, name: 'chatkeep.search_match', args: 'keys text[], folded text, pattern text, narrowing text', columns: MATCH_COLUMNS,
    settings: `${MATCH_SETTINGS}${scans?.settings ?? ''}`, declare: `was text := current_setting('${SEARCH_LIKE_SETTING}', true);${seen}`, tag: 'match',
    body: `${scans?.body ?? ''}IF narrowing = 'trgm' THEN
        PERFORM set_config('${SEARCH_LIKE_SETTING}', pattern, true);
        RETURN QUERY ${matchSql('trgm', everySession, sessionHits, sampled, coverage, seer)};
        PERFORM set_config('${SEARCH_LIKE_SETTING}', coalesce(was, ''), true);
      ELSIF narrowing = 'grams' THEN
        RETURN QUERY ${matchSql('grams', everySession, sessionHits, sampled, coverage, seer)};
      ELSE
        RETURN QUERY ${matchSql(undefined, everySession, sessionHits, sampled, coverage, seer)};
      END IF;`,
  });
}
