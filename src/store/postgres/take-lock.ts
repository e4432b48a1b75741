/**
 * Taking a session's writer lock on PostgreSQL (docs/design.md §11, §12). Two ways to hold it, one
 * holder row (`chatkeep.holders`) and one epoch (`sessions.lock_epoch`) for both:
 *
 * - direct (a connection of our own to the server): a session-level advisory
 *   lock on the lock's connection; the server frees it when that connection ends, so a holder that
 *   dies is taken over at once. Its holder row has no `expires_at`.
 * - lease (behind a pooler, where in transaction pooling no session state stays with us, see
 *   pooler.ts): no advisory lock at all; the holder row carries `expires_at`, renewed by a heartbeat
 *   (lock.ts). A lease that expired, or whose holder on this host is gone (by identity), is free.
 *
 * Either way the decision is made in one transaction holding the session's row (`FOR UPDATE`), so
 * takers of both kinds are serialized, and each taking raises the epoch that every write of the
 * holder is checked against (event-log.ts, session-rows.ts): a holder superseded however it
 * happened (a frozen process, a pooler, a lease run out) writes nothing more.
 */
import type { Client } from 'pg';
import type { LockOwner } from '../../session/api/errors.js';
import { TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import { isAlive, processStart } from '../process-identity.js';
import type { Target } from './connect.js';
import { connectClient, limitsSql, storeError } from './connect.js';
import { HOST, heldLock, liveHere, ownerFrom, type PgLock } from './lock.js';
import { warmAppend } from './event-log.js';
import { LOCK_SPACE } from './lock-key.js';
import { isPooled } from './pooler.js';

/** The session's row and its holder, as a taker judges them (the row locked until its transaction ends). */
interface TakeRow {
  trashed: boolean;
  pid: number | null;
  host: string | null;
  started_at: Date | null;
  proc_start: string | null;
  /** The holder keeps a lease (transaction pooling), not an advisory lock. */
  leased: boolean;
  lease_live: boolean;
  /** The holder's connection has the session's advisory lock. */
  advisory_live: boolean;
}

const TAKE_SQL = `SELECT s.trashed_at IS NOT NULL AS trashed, h.pid, h.host, h.started_at, h.proc_start,
    h.expires_at IS NOT NULL AS leased, coalesce(h.expires_at > now(), false) AS lease_live,
    EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.pid = h.backend_pid
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.classid = ${LOCK_SPACE}::oid AND l.objid = k.key::oid AND l.objsubid = 2) AS advisory_live
  FROM chatkeep.sessions s LEFT JOIN chatkeep.lock_keys k ON k.session_id = s.id LEFT JOIN chatkeep.holders h ON h.session_id = s.id WHERE s.id = $1`;

/** Raises the epoch and records this process as the holder; `$5`: the lease in ms (NULL: an advisory lock). */
const RECORD_SQL = `WITH e AS (UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1 RETURNING lock_epoch)
  INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch, expires_at, proc_start)
  SELECT $1, $2, $3, $4, pg_backend_pid(), lock_epoch, now() + $5 * interval '1 millisecond', $6 FROM e
  ON CONFLICT (session_id) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, started_at = EXCLUDED.started_at,
    backend_pid = EXCLUDED.backend_pid, epoch = EXCLUDED.epoch, expires_at = EXCLUDED.expires_at, proc_start = EXCLUDED.proc_start
  RETURNING epoch`;

export interface TakeOptions {
  target: Target;
  id: string;
  onLost: (err: Error) => void;
  now: () => Date;
  /** The session is this role's own, or one it creates (Held's `mine`). */
  mine: boolean;
}

/** Takes the writer lock of `id`: `SessionInUseError` (exit 3) naming the holder when another process has it. */
export async function takeLock(options: TakeOptions): Promise<PgLock> {
  const { target, id, now } = options;
  const client = await connectClient(target);
  try {
    const pooled = await isPooled(client);
    if (!pooled) {
      // The server notices a holder whose machine dropped off within ~20 s, and frees its lock.
      // Generic plans from the first statement: this connection only runs the session's own
      // writes (each keyed by its ID), whose statements carry row security; planning one costs
      // several times running it, and the default plans the first five executions each anew.
      await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 3; SET tcp_keepalives_count = 3; SET plan_cache_mode = force_generic_plan');
      if (!(await takeAdvisory(client, id))) throw sessionInUse(id, await advisoryHolder(client, id), now());
    }
    const startedAt = now();
    const leaseMs = pooled ? target.timeouts.leaseMs : null;
    const epoch = await recordHolder(client, target, id, startedAt, leaseMs).catch(async (err: unknown) => {
      if (!pooled) await client.query('SELECT pg_advisory_unlock($1, key) FROM chatkeep.lock_keys WHERE session_id = $2', [LOCK_SPACE, id]).catch(() => undefined);
      throw err;
    });
    // The first append's one-off cost on this connection, paid now (event-log.ts): a direct lock's
    // connection keeps it; behind a pooler nothing stays, so nothing is readied.
    if (!pooled) await warmAppend(client, id, epoch, target.timeouts);
    const owner: LockOwner = { pid: process.pid, host: HOST, startedAt: startedAt.toISOString() };
    return heldLock({ target, client, id, owner, epoch, mine: options.mine, leaseMs, onLost: options.onLost });
  } catch (err) {
    await client.end().catch(() => undefined);
    throw storeError(err, target);
  }
}

/** The advisory lock of a direct connection; our own earlier connection, lost to us but not yet ended by the server, is ended first. */
async function takeAdvisory(client: Client, id: string): Promise<boolean> {
  const tryLock = async (): Promise<boolean | undefined> =>
    (await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, key) AS got FROM chatkeep.lock_keys WHERE session_id = $2', [LOCK_SPACE, id])).rows[0]
      ?.got;
  let got = await tryLock();
  if (got === undefined) throw new UnknownSessionError(id);
  if (!got && !liveHere.has(id) && (await endOwnOldConnection(client, id))) {
    for (let i = 0; i < 40 && !got; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      got = await tryLock();
    }
  }
  return got === true;
}

/**
 * In one transaction holding the session's row: refuses a live holder of the other kind (a lease
 * while we took the advisory lock, or an advisory lock while we would take a lease), refuses a
 * trashed session (a trash that committed before is seen), then raises the epoch and records us.
 */
async function recordHolder(client: Client, target: Target, id: string, startedAt: Date, leaseMs: number | null): Promise<number> {
  await client.query(`BEGIN; ${limitsSql(target.timeouts)}`);
  try {
    // The row lock first, in a statement of its own: a statement that waited for it would still
    // see the holder row of its own (older) snapshot, not the one the taker before us committed.
    await client.query('SELECT 1 FROM chatkeep.sessions WHERE id = $1 FOR UPDATE', [id]);
    const row = (await client.query<TakeRow>(TAKE_SQL, [id])).rows[0];
    if (!row) throw new UnknownSessionError(id);
    if (row.trashed) throw new TrashedSessionError(id);
    if (row.pid !== null && row.host !== null && row.started_at !== null && holderAlive(row, id, leaseMs !== null)) {
      throw sessionInUse(id, ownerFrom({ pid: row.pid, host: row.host, started_at: row.started_at }), startedAt);
    }
    const recorded = await client.query<{ epoch: string }>(RECORD_SQL, [id, process.pid, HOST, startedAt, leaseMs, processStart() ?? null]);
    await client.query('COMMIT');
    return Number(recorded.rows[0]!.epoch);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Whether the recorded holder still has the session, as a taker of this kind sees it. */
function holderAlive(row: TakeRow, id: string, leasing: boolean): boolean {
  if (!row.leased) return leasing && row.advisory_live; // an advisory holder: we hold the advisory lock ourselves otherwise
  if (!row.lease_live) return false;
  if (row.host !== HOST) return true;
  // On this host a lease outlives its holder only by the heartbeat's margin: judged by identity.
  if (row.pid === process.pid) return liveHere.has(id);
  return isAlive(row.pid!, row.proc_start ?? undefined);
}

/**
 * Who holds `id`'s advisory lock now: the holder row whose connection holds it. A winner writes
 * its row just after taking the lock, so the row is waited for up to a second.
 */
async function advisoryHolder(client: Client, id: string): Promise<LockOwner | undefined> {
  for (let i = 0; i < 20; i++) {
    const rows = (
      await client.query<TakeRow>(TAKE_SQL, [id])
    ).rows.filter((r) => r.advisory_live && r.pid !== null);
    const row = rows[0];
    if (row) return ownerFrom({ pid: row.pid!, host: row.host!, started_at: row.started_at! });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // No chatkeep holds it: a connection of someone who may write the session took the key by hand
  // (psql). Named as the server knows it, never left as "another process" nobody can find.
  const [other] = (await client.query<{ pid: number; role: string | null; app: string | null; since: Date }>(SQUATTER_SQL, [LOCK_SPACE, id])).rows;
  if (!other) return undefined;
  const app = other.app ? `, ${other.app}` : '';
  return ownerFrom({ pid: other.pid, host: `the database server (a connection of role ${other.role ?? 'unknown'}${app} that is not chatkeep's)`, started_at: other.since });
}

/** The server connection holding session `$2`'s advisory lock (`$1`: chatkeep's lock space), whoever it is. */
const SQUATTER_SQL = `SELECT l.pid, a.usename AS role, nullif(a.application_name, '') AS app, coalesce(a.backend_start, a.query_start, now()) AS since
  FROM pg_locks l JOIN chatkeep.lock_keys k ON k.session_id = $2 AND l.objid = k.key::oid LEFT JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objsubid = 2
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * Ends the server side of this process's own earlier lock connection of `id` (lost to us, e.g.
 * after a network cut, while the server still counts it alive): true when there was one.
 */
async function endOwnOldConnection(client: Client, id: string): Promise<boolean> {
  const ended = await client
    .query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(h.backend_pid) AS ended FROM chatkeep.holders h
       WHERE h.session_id = $1 AND h.pid = $2 AND h.host = $3 AND h.backend_pid <> pg_backend_pid() AND h.expires_at IS NULL`,
      [id, process.pid, HOST],
    )
    .catch(() => ({ rows: [] as { ended: boolean }[] }));
  return ended.rows[0]?.ended === true;
}
