/**
 * Search facts put straight into the server, for tests that build many sessions' rows by SQL
 * instead of through the store (which writes them with each snapshot: search-rows.ts).
 */
import { runSql } from './postgres.js';

/**
 * Each session's facts as a snapshot of version 1 leaves them (one message, its last event 2),
 * owned by the role asking: `rows` is SQL giving each session's `id` and `title`.
 */
export async function writeSearchFacts(url: string, rows: string): Promise<void> {
  await runSql(
    url,
    `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
     SELECT id, current_user, 1, 2, 1, 0, 't', title, lower(title) FROM (${rows}) r`,
  );
}
