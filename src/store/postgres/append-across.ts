/**
 * The fenced append of several held sessions in one statement (docs/design.md §9, §12): what
 * group-commit.ts sends when appends of a store's sessions arrive together. One statement is one
 * implicit transaction, so one commit (one WAL flush waited for) and one executor start serve
 * them all, where each session's own append paid both (docs/internals.md, "Group commit across a
 * store's sessions").
 */
import type { ClientBase } from 'pg';
import type { SessionEvent } from '../../session/format/store.js';
import { runPreparedRows } from './connect.js';

/** A held session's part of a statement: its ID, its lock's epoch, and the events it appends. */
export interface Part {
  id: string;
  epoch: number;
  events: readonly SessionEvent[];
}

/**
 * The fence of each session (CURRENT_EPOCH's, event-log.ts), as rows: `f` holds the sessions of
 * `$1` whose row is share-locked while its epoch is the one `$2` gives beside it. A taker raises
 * the epoch with an UPDATE of the row, which waits for this statement's transaction to end; a
 * statement after it finds no row for that session, and writes none of its events. Each event
 * (`$3`: its session) joins its session's fence row, so a session fenced off adds nothing and the
 * others are stored. `mine` is FENCED_OWNER's: whether the one appending owns the session
 * (`by_owner`, which the events policy holds true). The answer is the sessions fenced in, each
 * stored whole: no RETURNING of the events (it would add the read policy of `events` to every row).
 * The events are new: one stored before fails the whole statement on a unique index (23505).
 */
export const ACROSS_SQL = `WITH f AS (
    SELECT s.id, s.owner = current_user AS mine
    FROM unnest($1::text[], $2::bigint[]) AS h (id, epoch) JOIN chatkeep.sessions s ON s.id = h.id AND s.lock_epoch = h.epoch
    FOR SHARE OF s
  ), stored AS (
    INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id, by_owner)
    SELECT f.id, u.seq, u.ts, u.type, u.payload, u.event_id, f.mine
    FROM f JOIN unnest($3::text[], $4::bigint[], $5::timestamptz[], $6::text[], $7::json[], $8::text[]) AS u (session_id, seq, ts, type, payload, event_id)
      ON u.session_id = f.id
  )
  SELECT id FROM f`;

/** Runs ACROSS_SQL on `client` (one of the parts' lock connections, all the same role's): the IDs of the sessions stored. */
export async function appendAcross(client: ClientBase, parts: readonly Part[]): Promise<Set<string>> {
  const events = parts.flatMap((p) => p.events.map((e) => ({ id: p.id, e })));
  const { rows } = await runPreparedRows<{ id: string }>(client, 'chatkeep_append_across', ACROSS_SQL, [
    parts.map((p) => p.id),
    parts.map((p) => p.epoch),
    events.map((x) => x.id),
    events.map((x) => x.e.seq),
    events.map((x) => x.e.ts),
    events.map((x) => x.e.type),
    events.map((x) => JSON.stringify(x.e.payload)),
    events.map((x) => x.e.id ?? null),
  ]);
  return new Set(rows.map((r) => r.id));
}
