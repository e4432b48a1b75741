/**
 * A held session's events as rows (DESIGN §8): an append resolves once its INSERT has
 * committed, on the lock's own connection. Appends that arrive while one INSERT is on its way
 * go together in the next (group commit): a streamed reply's deltas cost one round trip per
 * batch, not per delta, and each still resolves only once it is in the database, so a
 * kill -9 of chatkeep keeps every delta it was told was written.
 */
import type { Client } from 'pg';
import type { EventLog, SessionEvent } from '../../session/store.js';
import type { PgLock } from './lock.js';

interface Pending {
  events: SessionEvent[];
  done: Promise<void>;
}

/** Inserts events as one statement (one commit), whatever their number. */
export async function insertEvents(client: Client, id: string, events: readonly SessionEvent[]): Promise<void> {
  await client.query(
    `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload)
     SELECT $1, * FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::json[])`,
    [id, events.map((e) => e.seq), events.map((e) => e.ts), events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload))],
  );
}

export function openEventLog(lock: PgLock): EventLog {
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
        await insertEvents(client, lock.id, batch.events);
      });
      open = batch;
      return batch.done;
    },
    compact(seq) {
      return lock.write(async (client) => {
        await client.query('DELETE FROM chatkeep.events WHERE session_id = $1 AND seq <= $2', [lock.id, seq]);
      });
    },
    async close() {
      closed = true;
      await open?.done.catch(() => undefined);
    },
  };
}
