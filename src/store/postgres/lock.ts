/**
 * A session's writer lock on PostgreSQL (DESIGN §4, §8): a session-level advisory lock on a
 * connection of its own, held as long as the session is open, plus a holder row (pid, host,
 * start time) naming who has it. The server frees the lock when that connection ends, so a
 * holder that dies (kill -9, a machine gone: TCP keepalives) is taken over at once, with no
 * stale timeout. Every write of the session runs on this same connection: a write that
 * succeeds was made while the lock was held.
 */
import { hostname } from 'node:os';
import type { Client, QueryConfig } from 'pg';
import type { LockOwner } from '../../session/errors.js';
import { ReadOnlySessionError, StoreUnavailableError, TrashedSessionError, UnknownSessionError, sessionInUse } from '../../session/errors.js';
import type { LockState, WriterLock } from '../../session/store.js';
import type { Target } from './connect.js';
import { connectClient, isUnreachable, storeError } from './connect.js';
import { LOCK_SPACE } from './lock-key.js';
import { scrub } from './url.js';

export const HOST = hostname();

/** A held lock, and the only way to write to its session. */
export interface PgLock extends WriterLock {
  readonly id: string;
  /** Runs `fn` on the lock's connection, after every write asked for before it; refused once the lock is gone. */
  write<T>(fn: (client: Client) => Promise<T>): Promise<T>;
}

/** The `lock_key`s of sessions whose advisory lock some connection holds now (as SQL, column `objid`). */
export const HELD_KEYS_SQL = `SELECT l.objid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = ${LOCK_SPACE}::oid AND l.objsubid = 2`;

/** Sessions this process holds through a lock it has not lost (by any store opened in it). */
const liveHere = new Set<string>();

/** A stillHeld() within this long of the last answer on the connection trusts it without asking again. */
const FRESH_MS = 1_000;

interface HolderRow {
  pid: number;
  host: string;
  started_at: Date;
}

export function ownerFrom(row: HolderRow): LockOwner {
  return { pid: row.pid, host: row.host, startedAt: row.started_at.toISOString() };
}

/** Takes the writer lock of `id`: `SessionInUseError` (exit 3) naming the holder when another connection has it. */
export async function takeLock(target: Target, id: string, onLost: (err: Error) => void, now: () => Date): Promise<PgLock> {
  const client = await connectClient(target);
  const fail = async (err: unknown): Promise<never> => {
    await client.end().catch(() => undefined);
    throw storeError(err, target);
  };
  let startedAt: Date;
  try {
    // The server notices a holder whose machine dropped off within ~20 s, and frees its lock.
    await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 3; SET tcp_keepalives_count = 3');
    const tryLock = async (): Promise<boolean | undefined> =>
      (await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, lock_key) AS got FROM chatkeep.sessions WHERE id = $2', [LOCK_SPACE, id]))
        .rows[0]?.got;
    let got = await tryLock();
    if (got === undefined) return await fail(new UnknownSessionError(id));
    if (!got && !liveHere.has(id) && (await endOwnOldConnection(client, id))) {
      // Our own earlier connection, given up as lost but not yet noticed dead by the server.
      for (let i = 0; i < 40 && !got; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        got = await tryLock();
      }
    }
    if (!got) return await fail(await sessionInUse(id, await currentHolder(client, id), now()));
    // Read after the lock is held: a trash that committed before it (holding the same lock for
    // its move, see trash.ts) is seen, so a trashed session is never written to.
    const trashed = await client.query<{ trashed: boolean }>('SELECT trashed_at IS NOT NULL AS trashed FROM chatkeep.sessions WHERE id = $1', [id]);
    if (trashed.rows[0]?.trashed) return await fail(new TrashedSessionError(id));
    startedAt = now();
    // A new epoch per taking: whoever holds the session next can tell it changed hands.
    await client.query(
      `WITH e AS (UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1 RETURNING lock_epoch)
       INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch)
       SELECT $1, $2, $3, $4, pg_backend_pid(), lock_epoch FROM e
       ON CONFLICT (session_id) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host,
         started_at = EXCLUDED.started_at, backend_pid = EXCLUDED.backend_pid, epoch = EXCLUDED.epoch`,
      [id, process.pid, HOST, startedAt],
    );
  } catch (err) {
    return fail(err);
  }
  return heldLock(target, client, id, { pid: process.pid, host: HOST, startedAt: startedAt.toISOString() }, onLost);
}

/**
 * Who holds `id`'s lock now: the holder row whose connection holds the advisory lock. A winner
 * writes its row just after taking the lock, and a row left by a killed holder stays until the
 * next one replaces it: so only a row whose backend holds the lock names the holder, waited for
 * up to a second.
 */
async function currentHolder(client: Client, id: string): Promise<LockOwner | undefined> {
  for (let i = 0; i < 20; i++) {
    const rows = (
      await client.query<HolderRow>(
        `SELECT h.pid, h.host, h.started_at FROM chatkeep.holders h JOIN chatkeep.sessions s ON s.id = h.session_id
         WHERE h.session_id = $1 AND EXISTS (
           SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.pid = h.backend_pid
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
             AND l.classid = ${LOCK_SPACE}::oid AND l.objid = s.lock_key::oid AND l.objsubid = 2)`,
        [id],
      )
    ).rows;
    if (rows[0]) return ownerFrom(rows[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * Ends the server side of this process's own earlier lock connection of `id` (lost to us, e.g.
 * after a network cut, while the server still counts it alive): true when there was one.
 */
async function endOwnOldConnection(client: Client, id: string): Promise<boolean> {
  const ended = await client.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(h.backend_pid) AS ended FROM chatkeep.holders h
     WHERE h.session_id = $1 AND h.pid = $2 AND h.host = $3 AND h.backend_pid <> pg_backend_pid()`,
    [id, process.pid, HOST],
  ).catch(() => ({ rows: [] as { ended: boolean }[] }));
  return ended.rows[0]?.ended === true;
}

function heldLock(target: Target, client: Client, id: string, owner: LockOwner, onLost: (err: Error) => void): PgLock {
  let released = false;
  let lost: Error | undefined;
  let answeredAt = Date.now();
  let tail: Promise<unknown> = Promise.resolve();
  liveHere.add(id);
  const markLost = (reason: string): void => {
    if (released || lost) return;
    liveHere.delete(id);
    lost = new StoreUnavailableError(`Cannot reach the session store at ${target.location} (${scrub(reason, target.url)})`);
    client.end().catch(() => undefined);
    try {
      onLost(lost);
    } catch {
      // a listener's failure must not stop the lock from counting as lost
    }
  };
  client.on('error', (err) => markLost(err.message));
  client.on('end', () => markLost('the connection was closed'));
  // node-postgres takes a per-query timeout that its types omit: a ping answers fast or not at all.
  const ping: QueryConfig & { query_timeout: number } = { text: 'SELECT 1', query_timeout: Math.min(target.timeouts.connectTimeoutMs, target.timeouts.queryTimeoutMs) };
  const ask = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    try {
      const result = await fn(client);
      answeredAt = Date.now();
      return result;
    } catch (err) {
      if (isUnreachable(err)) markLost(err instanceof Error ? err.message : String(err));
      throw storeError(err, target);
    }
  };
  return {
    id,
    owner,
    async stillHeld() {
      if (released || lost) return false;
      if (Date.now() - answeredAt < FRESH_MS) return true;
      // After a gap (this process was frozen, or idle) the connection may be gone unnoticed: ask.
      try {
        await ask((c) => c.query(ping));
      } catch {
        return false;
      }
      return !lost && !released;
    },
    write(fn) {
      const run = tail.then(() => {
        if (released) throw new Error(`Session ${id}'s lock was released: nothing was written.`);
        if (lost) throw new ReadOnlySessionError(id, lost instanceof StoreUnavailableError ? lost : undefined);
        return ask(fn);
      });
      tail = run.catch(() => undefined);
      return run;
    },
    async release() {
      if (released) return;
      await tail;
      released = true;
      if (lost) return; // already out of liveHere, where a newer lock of this session may be
      liveHere.delete(id);
      try {
        await client.query('DELETE FROM chatkeep.holders WHERE session_id = $1 AND backend_pid = pg_backend_pid()', [id]);
        await client.query('SELECT pg_advisory_unlock($1, lock_key) FROM chatkeep.sessions WHERE id = $2', [LOCK_SPACE, id]);
      } catch {
        // The connection is ending anyway, and the lock with it.
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/** A row of `INSPECT_SQL`. */
export interface InspectRow {
  held: boolean;
  pid: number | null;
  host: string | null;
  started_at: Date | null;
}

/** Who holds a session's lock, from `INSPECT_SQL`'s answer (none: no such session, so nobody). */
export function lockStateFrom(rows: readonly InspectRow[]): LockState {
  const row = rows[0];
  if (!row) return { state: 'free' };
  const owner = row.pid !== null && row.host !== null && row.started_at !== null ? ownerFrom({ pid: row.pid, host: row.host, started_at: row.started_at }) : undefined;
  if (row.held) return { state: 'held', owner };
  // A holder row without its lock: the holder's connection ended without letting go (it died).
  if (owner) return { state: 'dead', owner, sameHost: owner.host === HOST };
  return { state: 'free' };
}

/** Reads a session's lock without taking it. */
export const INSPECT_SQL = `SELECT s.lock_key::oid IN (${HELD_KEYS_SQL}) AS held, h.pid, h.host, h.started_at
  FROM chatkeep.sessions s LEFT JOIN chatkeep.holders h ON h.session_id = s.id WHERE s.id = $1`;
