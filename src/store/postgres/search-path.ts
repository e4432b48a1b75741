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
 * How the sample's sessions (`t`) are counted, by how each release read them: `messages`, the
 * messages holding `$2` among each one's message rows; `blocks` (schema 31), the texts holding it
 * among each one's blocks (search-blocks.ts), the same count where the blocks are whole. Read from
 * the message rows, each sampled session was a lookup by its key that the trigram policy
 * (search-narrowing.ts) also narrows, and the plan a member's connection keeps could take both
 * indexes and AND them: each of the 32 sessions then had the trigram index give every message of
 * the server holding the word (1,371,936 entries for one search of a word in nearly every message at
 * the scale bench's 2,000 sessions: docs/internals.md, "The by-session sample read from blocks").
 * Blocks carry no trigram policy and no trigram index. A session whose blocks do not cover as many
 * messages as its search facts say is counted from its message rows, as the hits are (search-match.ts):
 * sampled short, a common word would take the index.
 */
export type SampledFrom = 'messages' | 'blocks';
/** The sampled session's message rows that hold `$2`. */
const MESSAGES_HOLDING = 'FROM chatkeep.search_messages m WHERE m.session_id = t.id AND strpos(m.folded, $2) > 0';
const SAMPLED: Record<SampledFrom, string> = {
  messages: `SELECT count(*) AS found ${MESSAGES_HOLDING}`,
  blocks: `SELECT CASE WHEN x.covered = t.d_messages THEN x.found ELSE (SELECT count(*) ${MESSAGES_HOLDING}) END AS found
          FROM (SELECT count(*) FILTER (WHERE strpos(z.folded, $2) > 0) AS found, count(*) AS covered
            FROM (SELECT unnest(b.folded) AS folded FROM chatkeep.search_blocks b WHERE b.session_id = t.id) z) x`,
};

/**
 * The searcher's sessions and their messages (each session's count in its search facts), in one
 * pass over `vis` (schema 36 on): the messages decide the hits' path (bySessionSql), the sessions
 * whether the events table is read whole (search-pending.ts). Before, the path summed `vis` alone.
 */
export const COUNTED = `counted AS MATERIALIZED (SELECT count(*) AS n, coalesce(sum(d_messages), 0)::float8 AS messages FROM vis),
  `;

/** Where bySessionSql takes the searcher's messages from: a pass of its own over `vis`, or COUNTED's. */
export type MessagesFrom = keyof typeof MESSAGES;
const MESSAGES = {
  vis: '(SELECT coalesce(sum(d_messages), 0)::float8 AS messages FROM vis) z',
  counted: '(SELECT c.messages FROM counted c) z',
};

/**
 * Whether the hits are read session by session, as one row `yes` (`narrows`: the query is long
 * enough for the index; the match query's `vis` and `$2`, its folded query, in scope): from `vis`,
 * the searcher's messages (each session's count in its search facts, summed by a pass of its own
 * or by COUNTED's, `messages`) and the sample's share of
 * messages that hold `$2` (one added to each side: a sample without the word says "rarer than
 * the sample can tell"); the server's messages as the statistics count them (`reltuples`, which
 * any role may read: a count, not a row). The sample is read only past `upTo`.
 */
export const bySessionSql = (narrows: boolean, sampled: SampledFrom = 'messages', messages: MessagesFrom = 'vis'): string => {
  if (!narrows) return 'SELECT true AS yes';
  const { upTo, sample } = SESSION_BY_SESSION;
  return `SELECT z.messages <= ${upTo} OR (
      SELECT greatest((SELECT c.reltuples FROM pg_class c WHERE c.oid = 'chatkeep.search_messages'::regclass), z.messages)
        * (coalesce(sum(x.found), 0) + 1) / (coalesce(sum(t.d_messages), 0) + 1) >= z.messages
      FROM (SELECT v.id, v.d_messages FROM vis v WHERE v.d_messages BETWEEN 1 AND ${sample.messages} LIMIT ${sample.sessions}) t
        CROSS JOIN LATERAL (${SAMPLED[sampled]}) x) AS yes
    FROM ${MESSAGES[messages]}`;
};
