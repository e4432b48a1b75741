/**
 * Whether search's blocks (src/store/postgres/search-blocks.ts) say what the message rows say, as
 * a superuser sees both: each message's folded text at its place in its session's blocks, under its
 * owner, and no element beside them.
 */
export const BLOCKS_SQL = `SELECT
    (SELECT count(*)::int FROM chatkeep.search_messages m
      LEFT JOIN chatkeep.search_blocks b ON b.session_id = m.session_id AND b.block = m.n / 32
      WHERE b.folded[m.n % 32 + 1] IS DISTINCT FROM m.folded OR b.owner IS DISTINCT FROM m.owner) AS misplaced,
    (SELECT coalesce(sum(cardinality(folded)), 0)::int FROM chatkeep.search_blocks) AS elements,
    (SELECT count(*)::int FROM chatkeep.search_messages) AS messages`;
