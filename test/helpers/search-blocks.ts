import { runSql } from './postgres.js';

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

/**
 * Writes the rows of twoInOneProject's `sessions` (with `messages`, the statement's `$1` the
 * owners) as their snapshots would: closed sessions of 1 to 40 messages (one block or two),
 * `journal` 0 to 2 times a message (most sessions hold several messages of 2, the latest the best),
 * `heron` in the first message of every 997th. No blocks: a schema before them has none.
 */
export async function writeTeamMessages(url: string, owners: readonly string[], sessions: string): Promise<void> {
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
     SELECT id, owner, 'p', '/p', 'Session ' || n, now(), now() - n * interval '1 second', 'closed', 1, messages FROM (${sessions}) x`,
    [owners],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
     SELECT id, owner, 1, 0, messages, 0, 't' || n, 'Session ' || n, 'session ' || n FROM (${sessions}) x`,
    [owners],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
     SELECT id, owner, k, 'user', k, false, to_json(t), t FROM (${sessions}) x, generate_series(0, x.messages - 1) k,
       LATERAL (SELECT 'message ' || k || ' of ' || x.n || repeat(' journal', (x.n + k) % 3) || CASE WHEN x.n % 997 = 0 AND k = 0 THEN ' heron' ELSE '' END AS t) m`,
    [owners],
  );
}

/** The match's columns but its best message, which since schema 32 it gives only where it comes free (search-hits.ts). */
const MATCHED_ROW = 'row(f.id, f.project_key, f.project_path, f.updated_at, f.hits, f.title_hits, f.title_stale, f.stale, f.pending, f.title, f.version)::text';

/** The match's rows (`chatkeep.search_match`) for a word in the project `p` and a narrowing (or none), each as text but its best message, in ID order. */
export const matchedRows = async (url: string, word: string, narrowing: 'trgm' | null): Promise<string[]> =>
  (await runSql<{ r: string }>(url, `SELECT ${MATCHED_ROW} AS r FROM chatkeep.search_match($1, $2, $3, $4) f ORDER BY f.id`, [
    ['p'], word, narrowing && `%${word}%`, narrowing,
  ])).map((x) => x.r);

/** Each session with hits for which the match gives a best message, as `id n hits`, in ID order. */
export const bestsMatched = async (url: string, word: string, narrowing: 'trgm' | null): Promise<string[]> =>
  (await runSql<{ r: string }>(
    url,
    "SELECT f.id || ' ' || f.best || ' ' || f.best_hits AS r FROM chatkeep.search_match($1, $2, $3, $4) f WHERE f.hits > 0 AND f.best IS NOT NULL ORDER BY f.id",
    [['p'], word, narrowing && `%${word}%`, narrowing],
  )).map((x) => x.r);

/** The best message (`id n hits`) of each of `ids` that has one, as this build's results find it (search-results.ts), in ID order. */
export const bestsShown = async (url: string, ids: string[], word: string): Promise<string[]> =>
  (await runSql<{ r: string }>(
    url,
    "SELECT r.id || ' ' || r.best || ' ' || r.best_hits AS r FROM chatkeep.search_results($1, $2, $3, $4, $5) r WHERE r.best IS NOT NULL ORDER BY r.id",
    [['p'], ids, ids.map(() => null), word, ids.map(() => true)],
  )).map((x) => x.r);
