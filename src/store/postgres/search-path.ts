/**
 * Which way a search reads its hits on PostgreSQL (docs/design.md §18): session by session, or
 * through the narrowing index (search.ts runs the one this chooses, in the same statement).
 */

/**
 * How a search reads the hits of a searcher's messages: session by session (each session's
 * messages by its primary key), or through the narrowing index (every candidate of the server,
 * each checked by row security). The index costs what the server holds of the word; session by
 * session costs what the searcher holds. Row security hides how common a word is on the server
 * (the planner may not use a column's statistics for `LIKE`, which is not leakproof), so the search
 * counts the word in a sample of the searcher's own sessions (`sessions`, each of at most
 * `messages`) and takes the index only where the server's messages times that share are fewer
 * than the searcher's: a rare word by the index, a common one session by session. Searchers of
 * at most `upTo` messages, and queries the index cannot narrow, read session by session.
 */
export const SESSION_BY_SESSION = { upTo: 2_000, sample: { sessions: 32, messages: 100 } };

/**
 * Whether the hits are read session by session, as one row `yes` (`narrows`: the query is long
 * enough for the index; the match query's `vis` and `$2`, its folded query, in scope): from `vis`,
 * the searcher's messages (each session's count in its search facts) and the sample's share of
 * messages that hold `$2` (one added to each side: a sample without the word says "rarer than
 * the sample can tell"); the server's messages as the statistics count them (`reltuples`, which
 * any role may read: a count, not a row). The sample is read only past `upTo`.
 */
export const bySessionSql = (narrows: boolean): string => {
  if (!narrows) return 'SELECT true AS yes';
  const { upTo, sample } = SESSION_BY_SESSION;
  return `SELECT z.messages <= ${upTo} OR (
      SELECT greatest((SELECT c.reltuples FROM pg_class c WHERE c.oid = 'chatkeep.search_messages'::regclass), z.messages)
        * (coalesce(sum(x.found), 0) + 1) / (coalesce(sum(t.d_messages), 0) + 1) >= z.messages
      FROM (SELECT v.id, v.d_messages FROM vis v WHERE v.d_messages BETWEEN 1 AND ${sample.messages} LIMIT ${sample.sessions}) t
        CROSS JOIN LATERAL (SELECT count(*) AS found FROM chatkeep.search_messages m WHERE m.session_id = t.id AND strpos(m.folded, $2) > 0) x) AS yes
    FROM (SELECT coalesce(sum(d_messages), 0)::float8 AS messages FROM vis) z`;
};
