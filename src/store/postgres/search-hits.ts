/**
 * How search on PostgreSQL counts a session's hits and finds its best message (the message with
 * the most hits, the latest of equals), session by session: for the match (search-match.ts), which
 * reads every session a searcher may read, and for the results (search-results.ts), which find the
 * best message of the sessions shown whose hits the match counted from their blocks.
 *
 * A released migration never changes (docs/postgres.md): the texts of schemas 18 to 31 are still
 * built from `filtered`, `countedOnce` and `blocks`, exactly as they were written.
 */
import { BLOCK } from './search-blocks.js';

/**
 * Non-overlapping occurrences of `needle` (the folded query: `$2` in the match) in `column`, as
 * `countOccurrences` counts them (in bytes: no character count to take).
 */
export const HITS_IN = (column: string, needle = '$2'): string =>
  `(octet_length(${column}) - octet_length(replace(${column}, ${needle}, ''))) / octet_length(${needle})`;

/** Packs (hits, message) so that one `max` finds the message with the most hits, the latest of equals. */
export const PACK = 2 ** 32;

/** A session's hits and best message (packed, PACK), and the columns `also`, from its messages' numbers `y.n` and hits `y.hits` in `rows`. */
const TOTALS = (rows: string, also = ''): string => `SELECT sum(y.hits)::int AS hits, max(y.hits::bigint * ${PACK} + y.n) AS best${also}
      FROM (${rows}) y`;

/** The session `v.id`'s messages, each with its number and its hits of `needle`, read from its message rows (only if `also`, ` AND …`). */
const FROM_ROWS = (needle: string, also = ''): string =>
  `SELECT m.n, ${HITS_IN('m.folded', needle)} AS hits FROM chatkeep.search_messages m WHERE m.session_id = v.id${also}`;

/** The same from its blocks (search-blocks.ts), each message's number its block's first plus its place in the array. */
const FROM_BLOCKS = (needle: string, also = ''): string => `SELECT z.n, ${HITS_IN('z.t', needle)} AS hits FROM (SELECT generate_series(b.block * ${BLOCK}, b.block * ${BLOCK} + cardinality(b.folded) - 1) AS n,
        unnest(b.folded) AS t FROM chatkeep.search_blocks b WHERE b.session_id = v.id${also}) z`;

/**
 * One session's hits (`v.id`), read session by session, by how each release counted them: the
 * sum, and the message with the most packed with its count (PACK), as `hits` and `best`; `kept`
 * says which sessions have any. `filtered` (schema 18) found the messages holding `$2` by `strpos`,
 * then counted each by `replace`: two passes over every message that holds it (three with the
 * trigram policy's `LIKE`, search-narrowing.ts), and a long message, stored compressed,
 * decompressed for each. `countedOnce` counts every message of the session in one pass; a message
 * without the word counts 0, which changes neither the sum nor the best (a message with hits packs
 * above any without), and a session whose sum is 0 is dropped: the same hits, one pass fewer.
 * `blocks` counts the same way from the session's blocks (search-blocks.ts); a session whose
 * blocks cover fewer or more messages than its search facts say (`d_messages`) is counted from its
 * message rows, as `countedOnce` counts (`f`, read only for such a session: its condition is the
 * subquery's one-time filter). `bestShown` counts the hits alone from the blocks (no message
 * numbers, no packing: ~30 % of the member's hits at 1,000,000 sessions), and gives a best message
 * only for a session counted from its message rows, where it comes with the count; the results
 * find the others' for the sessions shown only (bestOf), not for each of the ~10,000 sessions that
 * hold a common word.
 */
const SESSION_HITS = {
  filtered: { read: `${FROM_ROWS('$2')} AND strpos(m.folded, $2) > 0`, kept: 'x.hits IS NOT NULL' },
  countedOnce: { read: FROM_ROWS('$2'), kept: 'x.hits > 0' },
  blocks: { read: FROM_BLOCKS('$2'), kept: 'coalesce(f.hits, x.hits) > 0' },
  bestShown: { read: FROM_BLOCKS('$2'), kept: 'coalesce(f.hits, x.hits) > 0' },
};
export type SessionHits = keyof typeof SESSION_HITS;

/** Which sessions of the by-session branch have any hits, as SESSION_HITS says. */
export const keptBy = (sessionHits: SessionHits): string => SESSION_HITS[sessionHits].kept;

/**
 * Each session of `sessions` (with `id` and `d_messages`, as `v`): its hits and best message of
 * `needle` from its blocks, or from its message rows where its blocks do not cover them. A
 * generate_series and an unnest side by side in the select list run in step (a ProjectSet):
 * `unnest … WITH ORDINALITY` in FROM copied every block's texts into a tuplestore first (196 ms
 * beside 164 of the member's backend CPU at 1,000,000 sessions).
 */
const blocksOrRows = (sessions: string, needle: string, also = ''): string => `SELECT v.id, coalesce(f.hits, x.hits) AS hits, coalesce(f.best, x.best) AS best FROM ${sessions} v CROSS JOIN LATERAL (
      ${TOTALS(FROM_BLOCKS(needle, also), ', count(*) AS covered')}) x
      CROSS JOIN LATERAL (${TOTALS(FROM_ROWS(needle, also))} WHERE x.covered IS DISTINCT FROM v.d_messages) f`;

/** The hits' branch that reads session by session (`vis`), as SESSION_HITS says (`x`, and but for the first two `f`). */
export function bySessionBranch(sessionHits: SessionHits): string {
  if (sessionHits === 'blocks') return blocksOrRows('vis', '$2');
  if (sessionHits === 'bestShown') {
    return `SELECT v.id, coalesce(f.hits, x.hits) AS hits, f.best FROM vis v CROSS JOIN LATERAL (
      SELECT sum(${HITS_IN('z.t')})::int AS hits, count(*) AS covered
      FROM (SELECT unnest(b.folded) AS t FROM chatkeep.search_blocks b WHERE b.session_id = v.id) z) x
      CROSS JOIN LATERAL (${TOTALS(FROM_ROWS('$2'))} WHERE x.covered IS DISTINCT FROM v.d_messages) f`;
  }
  return `SELECT v.id, x.hits, x.best FROM vis v CROSS JOIN LATERAL (
      ${TOTALS(SESSION_HITS[sessionHits].read)}) x`;
}

/**
 * The best message of the session `id` for the folded query `needle`, counted as the match counts
 * (from its blocks, or its message rows where they do not cover its search facts' messages), as
 * `best` (its number) and `best_hits`; a row of NULLs where `wanted` is not true or it has no
 * message. Read under the same policies as the match's. `wanted` is in each read's own condition,
 * where it is a one-time filter: outside them (a join's filter) every session's blocks were read
 * and counted before it was looked at.
 */
export const bestOf = (id: string, needle: string, wanted: string): string => `SELECT (o.best % ${PACK})::int AS best, (o.best / ${PACK})::int AS best_hits FROM (
      ${blocksOrRows(`(SELECT ${id} AS id, (SELECT d.messages FROM chatkeep.search_sessions d WHERE d.session_id = ${id} AND ${wanted}) AS d_messages)`, needle, ` AND ${wanted}`)}) o`;
