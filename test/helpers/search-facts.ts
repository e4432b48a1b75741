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

/** Sessions whose search rows do not cover them, by how (IDs of each), and sessions trashed. */
export interface Uncovered {
  /** Facts of an older snapshot. */
  stale: string[];
  /** Titled anew since their facts. */
  renamed: string[];
  /** No facts at all. */
  unindexed: string[];
  /** An event past their facts (seq 3, a message holding `heron`). */
  pending: string[];
  trashed: string[];
}

/** Makes the sessions named in `ids` what `Uncovered` says, for a search to find (or, trashed, not to). */
export async function makeUncovered(url: string, ids: Uncovered): Promise<void> {
  await runSql(url, 'UPDATE chatkeep.search_sessions SET snapshot_version = 0 WHERE session_id = ANY($1)', [ids.stale]);
  await runSql(url, "UPDATE chatkeep.sessions SET title = 'Renamed heron' WHERE id = ANY($1)", [ids.renamed]);
  await runSql(url, 'DELETE FROM chatkeep.search_sessions WHERE session_id = ANY($1)', [ids.unindexed]);
  await runSql(
    url,
    `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
     SELECT id, 3, now(), 'message', '{"role":"user","content":"a heron"}', 'e3' FROM unnest($1::text[]) id`,
    [ids.pending],
  );
  await runSql(url, 'UPDATE chatkeep.sessions SET trashed_at = now() WHERE id = ANY($1)', [ids.trashed]);
}
