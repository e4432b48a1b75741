/**
 * A held session's events as rows (docs/design.md §9): an append resolves once its INSERT has
 * committed. Appends that arrive while one INSERT is on its way go together in the next: a
 * streamed reply's deltas cost one round trip per batch, not per delta, and each still resolves
 * only once it is in the database, so a kill -9 of chatkeep keeps every delta it was told was
 * written. A direct lock's batch goes through the store's group commit (group-commit.ts), which
 * sends it on the lock's own connection, or with other sessions' batches on one of theirs.
 */
import type { Client, ClientBase } from 'pg';
import type { EventLog, SessionEvent } from '../../session/format/store.js';
import type { PgLock } from './lock.js';
import { LockSupersededError, StoreUnavailableError } from '../../session/api/errors.js';
import { keptPlanFunction } from './kept-plan.js';
import { limitsSql, runPrepared, type Timeouts } from './connect.js';
import { appendAcross } from './append-across.js';
import type { AppendGroup } from './group-commit.js';

/**
 * Events carry their own ID (docs/design.md §4): a column of their row, unique per session (rows
 * of builds before it have none), by which a write of unknown outcome is read back.
 */
export const EVENT_IDS_MIGRATION = `
  ALTER TABLE chatkeep.events ADD COLUMN event_id text;
  CREATE UNIQUE INDEX events_by_id ON chatkeep.events (session_id, event_id) WHERE event_id IS NOT NULL;
`;

interface Pending {
  events: SessionEvent[];
  done: Promise<void>;
}

/**
 * The last event's seq of the session whose ID is `id` (SQL; NULL with none), by the events index
 * for that one session: row security then checks only that session's rows, where a join to a
 * grouped pass over the table would check every event of the server (docs/internals.md, "Member
 * reads by key").
 */
export const LAST_EVENT_SEQ = (id: string): string => `(SELECT max(e.seq) FROM chatkeep.events e WHERE e.session_id = ${id})`;

/**
 * The fence (docs/design.md §12), as a condition of one statement: the session's row, share-locked, while
 * `$n` is its epoch. A taker raises the epoch with an UPDATE of that row, which waits for the
 * statement's transaction to end; a statement after it finds no row, and writes nothing.
 */
export const CURRENT_EPOCH = (n: number): string => `(SELECT 1 FROM chatkeep.sessions WHERE id = $1 AND lock_epoch = $${n} FOR SHARE)`;

/**
 * The append as APPEND_FUNCTION_MIGRATION first stored it in the server's function, kept as it
 * was: a migration is never changed once released (OWNER_APPEND_MIGRATION replaces the function).
 */
const FIRST_APPEND_SQL = `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
  SELECT $1, u.seq, u.ts, u.type, u.payload, u.event_id FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::json[], $6::text[]) AS u (seq, ts, type, payload, event_id)
  WHERE EXISTS ${CURRENT_EPOCH(7)}
  ON CONFLICT (session_id, event_id) WHERE event_id IS NOT NULL DO NOTHING`;

/** The fence's row under `$7` as the appends join it (`f`): none, nothing inserted; `f.mine`, whether the one appending owns the session. */
const FENCED_OWNER = '(SELECT s.owner = current_user AS mine FROM chatkeep.sessions s WHERE s.id = $1 AND s.lock_epoch = $7 FOR SHARE) f';

/**
 * The append, one statement in its own implicit transaction (one round trip, committed when it
 * answers): the events INSERTed only under the epoch (the fence's row, as in CURRENT_EPOCH,
 * joined: no row, nothing inserted). The fence's row also says whether the one appending owns
 * the session (`by_owner`, which the events policy holds true: the listing's trigger skips the
 * owner's own appends, owner-append.ts). No RETURNING: the row count tells a full append, and
 * RETURNING would add the read policy of `events` (row security) to every append's plan and
 * every row it inserts. NEW_EVENTS_SQL is this alone: the events are new.
 */
const NEW_EVENTS_SQL = `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id, by_owner)
  SELECT $1, u.seq, u.ts, u.type, u.payload, u.event_id, f.mine
  FROM ${FENCED_OWNER},
    unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::json[], $6::text[]) AS u (seq, ts, type, payload, event_id)`;

/**
 * NEW_EVENTS_SQL for one event, its values as scalars: what a direct lock sends for the common
 * batch (a turn, a delta that found the connection free). Arrays cost each append their literal
 * text built and escaped in Node, then parsed and unnested by the server: ~30 µs of server CPU an
 * append (docs/internals.md, "The fenced append").
 */
const NEW_EVENT_SQL = `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id, by_owner)
  SELECT $1, $2::bigint, $3::timestamptz, $4::text, $5::json, $6::text, f.mine
  FROM ${FENCED_OWNER}`;

/**
 * NEW_EVENTS_SQL with an event whose ID is stored already skipped (a batch sent again), by the
 * unique index the INSERT checks anyway, not probed for first: the append a pooler's function
 * holds, and what a direct lock sends when NEW_EVENTS_SQL met a stored event.
 */
export const APPEND_SQL = `${NEW_EVENTS_SQL}
  ON CONFLICT (session_id, event_id) WHERE event_id IS NOT NULL DO NOTHING`;

/**
 * The append as a function of the server's, for a lock behind a pooler (transaction pooling): a
 * statement there is parsed and planned on every call (transaction pooling hands the server
 * connection to others between appends, so nothing prepared by us stays), and planning the
 * append, row security and all, costs several times running it. As a function (kept-plan.ts) the
 * append is planned once per server connection, and a call costs planning a one-function SELECT.
 * Its body is `sql` with the same parameters, as the append was when the migration was written.
 */
export const appendFunction = (create: 'CREATE' | 'CREATE OR REPLACE', sql: string): string => keptPlanFunction({
  create, name: 'chatkeep.append_events', args: 'text, bigint[], timestamptz[], text[], json[], text[], bigint', returns: 'bigint', writes: true,
  declare: 'stored bigint;', tag: 'fn', body: `${sql};
      GET DIAGNOSTICS stored = ROW_COUNT;
      RETURN stored;`,
});

/** The append as a function (appendFunction); changing APPEND_SQL needs a migration that replaces it, as OWNER_APPEND_MIGRATION does. */
export const APPEND_FUNCTION_MIGRATION = appendFunction('CREATE', FIRST_APPEND_SQL);

/** APPEND_SQL through APPEND_FUNCTION_MIGRATION's function: the events it stored as `n`. */
const POOLED_APPEND_SQL = 'SELECT chatkeep.append_events($1, $2, $3, $4, $5, $6, $7) AS n';

/** Of the IDs `$2`, how many are stored in session `$1` (an append that stored fewer than it sent asks). */
const STORED_SQL = 'SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1 AND event_id = ANY($2::text[])';

/**
 * Inserts events as one statement (one commit), whatever their number, only under the current
 * `epoch`. Idempotent: an event whose ID is stored already is not stored again, and counts as written.
 * `prepared`: the lock's connection is the server's own (not a pooler's), so the statement is
 * parsed and planned once per lock, not once per append; behind a pooler it cannot be kept, and
 * the server's function (APPEND_FUNCTION_MIGRATION) keeps the plan instead.
 */
export async function insertEvents(client: Client, id: string, events: readonly SessionEvent[], epoch: number, prepared = false): Promise<void> {
  const ids = events.map((e) => e.id ?? null);
  const values = (): unknown[] => [id, events.map((e) => e.seq), events.map((e) => e.ts), events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload)), ids, epoch];
  const inserted = prepared ? await appendPrepared(client, id, events, epoch, values) : Number((await client.query<{ n: string }>(POOLED_APPEND_SQL, values())).rows[0]?.n);
  if (inserted === events.length) return;
  // Fewer stored than sent: fenced off (none inserted), or some were stored before (a retry).
  // An event without an ID is only ever left out by the fence. Otherwise written only if every
  // event sent is there now, with its ID (those inserted by this statement are, committed).
  if (ids.some((e) => e === null)) throw new LockSupersededError(id, epoch);
  const stored = await client.query<{ n: number }>(STORED_SQL, [id, ids]);
  if (stored.rows[0]?.n !== ids.length) throw new LockSupersededError(id, epoch);
}

/**
 * The append on a direct lock: NEW_EVENT_SQL for one event, NEW_EVENTS_SQL for more, then
 * APPEND_SQL only if an event was stored already. ON CONFLICT makes each row a speculative
 * insertion (a lock of the server's lock manager taken and released, and a WAL record confirming
 * the row), events without an ID too: ~70–100 µs of server CPU an append at 200 writers
 * (docs/internals.md, "The fenced append"). A stored event fails the whole statement on a unique
 * index (23505), storing nothing; APPEND_SQL then stores the rest. A clash that is not a resend
 * fails APPEND_SQL the same way, and is thrown.
 */
async function appendPrepared(client: Client, id: string, events: readonly SessionEvent[], epoch: number, values: () => unknown[]): Promise<number | null> {
  const [one] = events;
  try {
    if (events.length === 1 && one) {
      const scalars = [id, one.seq, one.ts, one.type, JSON.stringify(one.payload), one.id ?? null, epoch];
      return await runPrepared(client, 'chatkeep_append_one', NEW_EVENT_SQL, scalars);
    }
    return await runPrepared(client, 'chatkeep_append', NEW_EVENTS_SQL, values());
  } catch (err) {
    if ((err as { code?: unknown }).code !== '23505') throw err;
    return await runPrepared(client, 'chatkeep_append_again', APPEND_SQL, values());
  }
}

/**
 * The seq of the warm-up's event, which is never stored (its transaction is rolled back): after
 * every real one, so that a writable grantee's append (only after the last event) is checked,
 * and its trigger run, as the real one will be.
 */
const PROBE_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * Readies a direct lock's connection for its appends when the lock is taken, before anything is
 * appended: each append statement (a batch's, a single event's, several sessions' at once)
 * prepared (parsed, planned generically) and run once. The batch's and the several sessions' run
 * with no events; the single event's appends a probe
 * event under the lock's epoch in a transaction that is rolled back, so that it runs whole: the
 * events policy's check and, for a grantee, the listing's trigger (before schema version 29 also
 * the foreign key's check, whose query the server prepared on a connection's first use).
 * That loads what every first append paid for on a new connection (the tables' catalog entries
 * and policies, the fence's plan), so the first acknowledged message costs
 * what the later ones cost, and the lock costs that much more to take (docs/internals.md, "Where
 * the 200 writers' append time went", "The first append's foreign key, readied too"). Nothing of
 * it stays: the probe's row is never committed, and the row lock its fence took goes with it.
 */
export async function warmAppend(client: Client, id: string, epoch: number, timeouts: Timeouts): Promise<void> {
  await insertEvents(client, id, [], epoch, true);
  const probe: SessionEvent = { seq: PROBE_SEQ, ts: new Date(0).toISOString(), type: 'message', payload: {} };
  await client.query(`BEGIN; ${limitsSql(timeouts)}`);
  try {
    // The statement across sessions (group-commit.ts) planned too, run with no events: its fence
    // share-locks the row, which the rollback lets go; the probe below runs the events' checks.
    await appendAcross(client, [{ id, epoch, events: [] }]);
    await appendPrepared(client, id, [probe], epoch, () => []);
  } finally {
    await client.query('ROLLBACK');
  }
}

/** Throws `LockSupersededError` unless `epoch` is still the session's (a write that changes nothing, fenced all the same). */
export async function stillCurrent(client: ClientBase, id: string, epoch: number): Promise<void> {
  const current = await client.query(`SELECT 1 FROM chatkeep.sessions WHERE id = $1 AND lock_epoch = $2`, [id, epoch]);
  if (current.rowCount !== 1) throw new LockSupersededError(id, epoch);
}

/**
 * The log of a held session; `appendOnly` (another's session shared for writing): it is never
 * compacted. `group`: the store's group commit (group-commit.ts), which a direct lock's batches go
 * through; behind a pooler each batch is the server's function's call on the lock's connection.
 */
export function openEventLog(lock: PgLock, appendOnly = false, group?: AppendGroup): EventLog {
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
      batch.done = lock
        .write(async (client) => {
          if (open === batch) open = undefined;
          if (group && lock.direct) await group.append(client, lock.id, lock.epoch, batch.events);
          else await insertEvents(client, lock.id, batch.events, lock.epoch, lock.direct);
        })
        .catch(async (err: unknown) => {
          // The connection went away with the INSERT perhaps on its way or waiting in the server:
          // settled before anyone is told (docs/design.md §12), so "not stored" is only said when true.
          if (!(err instanceof StoreUnavailableError) || (await lock.stillHeld())) throw err;
          const ids = batch.events.map((e) => e.id);
          if (ids.some((e) => e === undefined) || !(await lock.settle(ids as string[]).catch(() => false))) throw err;
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
