/**
 * A held session's events as rows (docs/design.md §9): an append resolves once its INSERT has
 * committed, on the lock's own connection. Appends that arrive while one INSERT is on its way
 * go together in the next (group commit): a streamed reply's deltas cost one round trip per
 * batch, not per delta, and each still resolves only once it is in the database, so a
 * kill -9 of chatkeep keeps every delta it was told was written.
 */
import type { Client, ClientBase } from 'pg';
import type { EventLog, SessionEvent } from '../../session/store.js';
import type { PgLock } from './lock.js';
import { LockSupersededError } from '../../session/errors.js';

interface Pending {
  events: SessionEvent[];
  done: Promise<void>;
}

/**
 * The fence (docs/design.md §12), as a condition of one statement: the session's row, share-locked, while
 * `$n` is its epoch. A taker raises the epoch with an UPDATE of that row, which waits for the
 * statement's transaction to end; a statement after it finds no row, and writes nothing.
 */
export const CURRENT_EPOCH = (n: number): string => `(SELECT 1 FROM chatkeep.sessions WHERE id = $1 AND lock_epoch = $${n} FOR SHARE)`;

/** Inserts events as one statement (one commit), whatever their number, only under the current `epoch`. */
export async function insertEvents(client: Client, id: string, events: readonly SessionEvent[], epoch: number): Promise<void> {
  const inserted = await client.query(
    `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload)
     SELECT $1, u.* FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::json[]) u WHERE EXISTS ${CURRENT_EPOCH(6)}`,
    [id, events.map((e) => e.seq), events.map((e) => e.ts), events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload)), epoch],
  );
  if (inserted.rowCount !== events.length) throw new LockSupersededError(id, epoch);
}

/** Throws `LockSupersededError` unless `epoch` is still the session's (a write that changes nothing, fenced all the same). */
export async function stillCurrent(client: ClientBase, id: string, epoch: number): Promise<void> {
  const current = await client.query(`SELECT 1 FROM chatkeep.sessions WHERE id = $1 AND lock_epoch = $2`, [id, epoch]);
  if (current.rowCount !== 1) throw new LockSupersededError(id, epoch);
}

/** The log of a held session; `appendOnly` (another's session shared for writing): it is never compacted. */
export function openEventLog(lock: PgLock, appendOnly = false): EventLog {
  // The batch not yet sent: appends join it until its turn on the connection comes.
  let open: Pending | undefined;
  let closed = false;
  return {
    append(event) {
      if (closed) return Promise.reject(new Error(`The event log of session ${lock.id} is closed.`));
      if (open) {
        open.events.push(event);
        return open.done;
      }
      const batch: Pending = { events: [event], done: Promise.resolve() };
      batch.done = lock.write(async (client) => {
        if (open === batch) open = undefined;
        await insertEvents(client, lock.id, batch.events, lock.epoch);
      });
      open = batch;
      return batch.done;
    },
    compact(seq) {
      if (appendOnly) return lock.write((client) => stillCurrent(client, lock.id, lock.epoch));
      return lock.write(async (client) => {
        const fenced = await client.query<{ current: boolean }>(
          `WITH f AS ${CURRENT_EPOCH(3)}, gone AS (DELETE FROM chatkeep.events WHERE session_id = $1 AND seq <= $2 AND EXISTS (SELECT 1 FROM f))
           SELECT EXISTS (SELECT 1 FROM f) AS current`,
          [lock.id, seq, lock.epoch],
        );
        if (!fenced.rows[0]?.current) throw new LockSupersededError(lock.id, lock.epoch);
      });
    },
    async close() {
      closed = true;
      await open?.done.catch(() => undefined);
    },
  };
}
