/**
 * A held session's writer lock on PostgreSQL (docs/design.md §11, §12), taken by take-lock.ts: a
 * connection of its own, held as long as the session is open, a holder row (pid, host, start
 * time) naming who has it, and the epoch of this taking. On a direct connection the lock is a
 * session-level advisory lock, which the server frees when the connection ends (kill -9, a
 * machine gone: TCP keepalives), so a dead holder is taken over at once; behind a pooler it is a
 * lease that a heartbeat renews. Every write of the session runs on this connection and is
 * conditional on the epoch: a write that succeeds was made by the current holder.
 */
import { hostname } from 'node:os';
import type { Client, QueryConfig } from 'pg';
import type { LockOwner } from '../../session/api/errors.js';
import { LockSupersededError, ReadOnlySessionError, StoreUnavailableError } from '../../session/api/errors.js';
import type { LockState, WriterLock } from '../../session/format/store.js';
import { isAlive } from '../process-identity.js';
import type { Target } from './connect.js';
import { isUnreachable, storeError } from './connect.js';
import { LOCK_SPACE } from './lock-key.js';
import { scrub } from './url.js';
import { settleAppend } from './settle.js';
import { revokedOrSuperseded } from './team/revoked.js';

export const HOST = hostname();

/** A held lock, and the only way to write to its session. */
export interface PgLock extends WriterLock {
  readonly id: string;
  readonly epoch: number;
  /** On a connection of its own to the server (an advisory lock), not a pooler's: statements prepared on it stay. */
  readonly direct: boolean;
  /** Runs `fn` on the lock's connection, after every write asked for before it; refused once the lock is gone. */
  write<T>(fn: (client: Client) => Promise<T>): Promise<T>;
  /** Once the lock is lost: whether events sent on its connection (by their IDs) are stored, settled for good (settle.ts). */
  settle(eventIds: readonly string[]): Promise<boolean>;
}

/**
 * The advisory locks of chatkeep's space held now, with the connection holding each (as SQL,
 * columns `objid` and `pid`). A session held through a lease (behind a pooler) is held while
 * `LEASED_SQL` is true.
 */
export const HELD_KEYS_SQL = `SELECT l.objid, l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = ${LOCK_SPACE}::oid AND l.objsubid = 2`;

/**
 * The sessions whose advisory lock is held (SQL, column `session_id`), from `held`, a relation of
 * HELD_KEYS_SQL: each held key looked up in `lock_keys` by key, so that row security checks the
 * few held keys, not every key of the listed sessions. A key the role asking may not read (a
 * session it may only read) is left out, as it cannot be told from its key alone.
 */
export const HELD_IDS_SQL = (held: string): string => `SELECT k.session_id FROM ${held} x JOIN chatkeep.lock_keys k ON k.key = x.objid::int`;

/**
 * True (SQL, over the session's key `k` from `chatkeep.lock_keys`, LEFT JOINed, and its holder
 * row `h`) while the session's advisory lock is held; `held` is a relation of HELD_KEYS_SQL. A
 * role that may only read the session cannot read its key: for it, the holder's connection
 * holding one of chatkeep's advisory locks tells (a lock connection holds its session's only).
 */
export const ADVISORY_HELD = (held: string): string =>
  `EXISTS (SELECT 1 FROM ${held} x WHERE x.objid = k.key::oid OR (k.key IS NULL AND x.pid = h.backend_pid))`;

/**
 * ADVISORY_HELD for many sessions at once (SQL, over session `s` and its holder row `h`; `held` a
 * relation of HELD_KEYS_SQL, `heldIds` of HELD_IDS_SQL), without a join to `lock_keys` that would
 * check its policy for every listed session. Whether the key is readable is asked only for a
 * holder whose connection holds a lock (CASE: in that order), and as a scalar subquery: an
 * `EXISTS` the planner may turn into a hashed pass over every key of the server.
 */
export const ADVISORY_HELD_LISTED = (held: string, heldIds: string): string => `CASE WHEN s.id IN (SELECT session_id FROM ${heldIds}) THEN true
    WHEN h.backend_pid IN (SELECT x.pid FROM ${held} x) THEN (SELECT k.key FROM chatkeep.lock_keys k WHERE k.session_id = s.id) IS NULL
    ELSE false END`;

/** True (SQL, over holder row `h`) while a holder's lease has not run out. */
export const LEASED_SQL = `coalesce(h.expires_at > now(), false)`;

/** Sessions this process holds through a lock it has not lost (by any store opened in it). */
export const liveHere = new Set<string>();

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

export interface Held {
  target: Target;
  client: Client;
  id: string;
  owner: LockOwner;
  epoch: number;
  /** The session is this role's own (or one it creates): its row gone is a deletion, never a share revoked. */
  mine: boolean;
  /** The lease's length behind a pooler (renewed every third of it); null: an advisory lock. */
  leaseMs: number | null;
  onLost: (err: Error) => void;
}

export function heldLock({ target, client, id, owner, epoch, mine, leaseMs, onLost }: Held): PgLock {
  let released = false;
  let lost: Error | undefined;
  let answeredAt = Date.now();
  let tail: Promise<unknown> = Promise.resolve();
  liveHere.add(id);
  const markLost = (reason: string | LockSupersededError): void => {
    if (released || lost) return;
    liveHere.delete(id);
    clearInterval(heartbeat);
    lost = typeof reason === 'string' ? new StoreUnavailableError(`Cannot reach the session store at ${target.location} (${scrub(reason, target.url)})`) : reason;
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
      if (err instanceof LockSupersededError) {
        const why = await revokedOrSuperseded(client, err, mine);
        markLost(why);
        throw why;
      }
      throw storeError(err, target);
    }
  };
  // A lease lasts while it is renewed: a third of its length apart, so two renewals may fail
  // (a slow query, a pooler busy) before it runs out. A renewal that finds the epoch moved on
  // means another process took the session over (this one was frozen past the lease).
  const renew = (): void => {
    if (released || lost || leaseMs === null) return;
    void write(async (c) => {
      const renewed = await c.query(`UPDATE chatkeep.holders SET expires_at = now() + $3 * interval '1 millisecond' WHERE session_id = $1 AND epoch = $2`, [id, epoch, leaseMs]);
      if (renewed.rowCount === 0) throw new LockSupersededError(id, epoch);
    }).catch(() => undefined);
  };
  const heartbeat = leaseMs === null ? undefined : setInterval(renew, leaseMs / 3);
  heartbeat?.unref();
  const write = <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    const run = tail.then(() => {
      if (released) throw new Error(`Session ${id}'s lock was released: nothing was written.`);
      if (lost instanceof LockSupersededError) throw lost;
      if (lost) throw new ReadOnlySessionError(id, lost instanceof StoreUnavailableError ? lost : undefined);
      return ask(fn);
    });
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    id,
    owner,
    epoch,
    direct: leaseMs === null,
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
    write,
    settle: (eventIds) => settleAppend(target, id, epoch, eventIds),
    async release() {
      if (released) return;
      await tail;
      released = true;
      clearInterval(heartbeat);
      if (lost) return; // already out of liveHere, where a newer lock of this session may be
      liveHere.delete(id);
      try {
        // One round trip on the way out: the holder row goes in the same statement that unlocks.
        if (leaseMs === null) {
          await client.query(
            'WITH gone AS (DELETE FROM chatkeep.holders WHERE session_id = $2 AND epoch = $3) SELECT pg_advisory_unlock($1, key) FROM chatkeep.lock_keys WHERE session_id = $2',
            [LOCK_SPACE, id, epoch],
          );
        } else await client.query('DELETE FROM chatkeep.holders WHERE session_id = $1 AND epoch = $2', [id, epoch]);
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
  /** Held through a lease (behind a pooler), which a holder on this host may outlive. */
  leased: boolean;
  pid: number | null;
  host: string | null;
  started_at: Date | null;
  proc_start: string | null;
}

/** Who holds a session's lock, from `INSPECT_SQL`'s answer (none: no such session, so nobody). */
export function lockStateFrom(rows: readonly InspectRow[]): LockState {
  const row = rows[0];
  if (!row) return { state: 'free' };
  const owner = row.pid !== null && row.host !== null && row.started_at !== null ? ownerFrom({ pid: row.pid, host: row.host, started_at: row.started_at }) : undefined;
  // A lease outlives a holder on this host that is gone (by identity) by up to its length.
  const gone = row.leased && owner !== undefined && owner.host === HOST && owner.pid !== process.pid && !isAlive(owner.pid, row.proc_start ?? undefined);
  if (row.held && !gone) return { state: 'held', owner };
  // A holder row without its lock: the holder's connection ended without letting go (it died).
  if (owner) return { state: 'dead', owner, sameHost: owner.host === HOST };
  return { state: 'free' };
}

/** Reads a session's lock without taking it. */
export const INSPECT_SQL = `SELECT (${ADVISORY_HELD(`(${HELD_KEYS_SQL})`)} OR ${LEASED_SQL}) AS held, h.expires_at IS NOT NULL AS leased, h.pid, h.host, h.started_at, h.proc_start
  FROM chatkeep.sessions s LEFT JOIN chatkeep.lock_keys k ON k.session_id = s.id LEFT JOIN chatkeep.holders h ON h.session_id = s.id WHERE s.id = $1`;
