/**
 * Connections to the server: node-postgres, loaded only when this store is chosen, a small pool
 * for reads and bookkeeping, and one dedicated connection per held session (its lock and its
 * writes). Every failure leaves here as a typed error whose text carries no password.
 */
import type { Client, ClientBase, ClientConfig, Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { ChatkeepError, StoreUnavailableError, UserError } from '../../session/api/errors.js';
import { privilegeError } from './team/privilege.js';
import { serverRefusal } from './server-refusal.js';
import { encrypted, planTls, tlsFailure, type TlsPlan } from './tls.js';
import { redactUrl, scrub } from './url.js';
import { importRequired } from '../../session/runtime/optional-package.js';
import { WARM_KEEP_MS } from '../../search/warm.js';

export interface Timeouts {
  /** Opening a connection (a server that does not answer: typed error after this long). */
  connectTimeoutMs: number;
  /** One query's answer (a server that went away mid-query). */
  queryTimeoutMs: number;
  /**
   * Behind a transaction-pooling pooler, how long a holder's lease lasts without being renewed
   * (take-lock.ts): the longest a session of a holder killed on another host stays held.
   */
  leaseMs: number;
  /**
   * How long the server keeps one of chatkeep's transactions open while nothing is asked of it
   * (`idle_in_transaction_session_timeout`): a holder frozen mid-save (SIGSTOP, a laptop lid)
   * then loses its connection, and the row locks and pooled connection it held, within this
   * long, not for as long as it stays frozen.
   */
  idleInTransactionMs: number;
  /** How long a statement of chatkeep's waits for a row lock (`lock_timeout`) before giving up. */
  lockWaitMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectTimeoutMs: 5_000, queryTimeoutMs: 15_000, leaseMs: 30_000, idleInTransactionMs: 5_000, lockWaitMs: 10_000 };

/**
 * The limits every transaction of chatkeep's sets for itself (SET LOCAL: through a pooler in
 * transaction mode a session-level SET would stay on a server connection others get next).
 */
export function limitsSql(t: Timeouts): string {
  return `SET LOCAL idle_in_transaction_session_timeout = ${Math.round(t.idleInTransactionMs)}; SET LOCAL lock_timeout = ${Math.round(t.lockWaitMs)}`;
}

type Pg = typeof import('pg');
let pgModule: Promise<Pg> | undefined;
/** node-postgres's query class, once loaded (every client is made after it is). */
let QueryOf: Pg['Query'] | undefined;
/** node-postgres is CommonJS: its exports are the namespace's default. */
function loadPg(): Promise<Pg> {
  // An optional peer dependency of the library (the CLI carries its own copy).
  pgModule ??= importRequired('pg', 'A PostgreSQL store', () => import('pg')).then((m) => {
    const pg = (m as Pg & { default?: Pg }).default ?? m;
    QueryOf = pg.Query;
    return pg;
  });
  return pgModule;
}

/**
 * Runs the statement `name` (parsed and planned on the connection's first run of it) with
 * `values`: its result. node-postgres copies a query given as `{ name, text, values }`
 * descriptor by descriptor on every call (~2 µs of Node's CPU and its garbage, on every append
 * of 200 writers: docs/internals.md, "The append without the foreign key's check"); a query made
 * from its text, then named, is not copied. Typed errors are the caller's, as for `client.query`.
 */
export function runPreparedRows<R extends QueryResultRow>(client: ClientBase, name: string, text: string, values: unknown[]): Promise<QueryResult<R>> {
  const Query = QueryOf;
  if (!Query) return Promise.reject(new Error('node-postgres is not loaded: a prepared statement needs a connection first'));
  return new Promise((resolve, reject) => {
    // node-postgres's types leave out the name it reads from the query (a named statement's).
    const query: InstanceType<Pg['Query']> & { name?: string } = new Query(text, values, (err, result) => (err ? reject(err) : resolve(result as unknown as QueryResult<R>)));
    query.name = name;
    void client.query(query);
  });
}

/** runPreparedRows for a statement whose rows are not wanted: the rows it changed. */
export async function runPrepared(client: ClientBase, name: string, text: string, values: unknown[]): Promise<number | null> {
  return (await runPreparedRows(client, name, text, values)).rowCount;
}

/** The connection settings of the store's URL. */
export interface Target {
  url: string;
  /** The URL without its password, for people. */
  location: string;
  timeouts: Timeouts;
  /** TLS as libpq reads it from the URL and the environment (tls.ts); absent: none. */
  tls?: { connectionString: string; tls: TlsPlan };
  /** The database role chatkeep works as, once the server has said (for messages about privileges). */
  role?: string;
}

/** The target of `url`, its TLS settings read from it and from `env` (PGSSLMODE…). */
export function targetOf(url: string, env: Record<string, string | undefined>, timeouts: Partial<Timeouts> = {}): Target {
  return { url, location: redactUrl(url), timeouts: { ...DEFAULT_TIMEOUTS, ...timeouts }, tls: planTls(url, env) };
}

async function config(target: Target): Promise<ClientConfig> {
  const plan = target.tls;
  let ssl: ClientConfig['ssl'] = false;
  try {
    if (plan && (await encrypted(plan.tls, target.timeouts.connectTimeoutMs))) ssl = plan.tls.options;
  } catch (err) {
    throw storeError(err, target);
  }
  return {
    connectionString: plan?.connectionString ?? target.url,
    ssl,
    connectionTimeoutMillis: target.timeouts.connectTimeoutMs,
    query_timeout: target.timeouts.queryTimeoutMs,
    keepAlive: true,
    application_name: 'chatkeep',
  };
}

/** The pool: a few connections, reopened by node-postgres after the server comes back. */
export async function createPool(target: Target): Promise<Pool> {
  const pg = await loadPg();
  // allowExitOnIdle: idle pooled connections must not keep a finished program alive. An idle one is
  // kept as long as the file store keeps its index: a search after it is let go logs in again (WARM_KEEP_MS).
  const pool = new pg.Pool({ ...(await config(target)), max: 4, idleTimeoutMillis: WARM_KEEP_MS, allowExitOnIdle: true });
  // An idle connection dropped by the server (a restart) must not crash the process: the pool discards it.
  pool.on('error', () => undefined);
  return pool;
}

/** A connection of its own, outside the pool (a session's lock lives as long as it does). */
export async function connectClient(target: Target): Promise<Client> {
  const pg = await loadPg();
  const client = new pg.Client(await config(target));
  client.on('error', () => undefined); // reported through the lock's own listeners
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw storeError(err, target);
  }
  return client;
}

/** Runs one query on the pool, errors typed. */
export async function query<R extends QueryResultRow>(pool: Pool, target: Target, sql: string, params: unknown[] = []): Promise<R[]> {
  try {
    return (await pool.query<R>(sql, params)).rows;
  } catch (err) {
    throw storeError(err, target);
  }
}

/** Runs `fn` in one transaction on a pooled connection (rolled back if it throws), errors typed. */
export async function transaction<T>(pool: Pool, target: Target, fn: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw storeError(err, target);
  }
  let broken = false;
  // A connection dropped while checked out reports it here too (a pooler refusing the
  // transaction): the failing query says so, and an unheard 'error' would end the process.
  const ignore = (): void => undefined;
  client.on('error', ignore);
  try {
    await client.query(`${begin}; ${limitsSql(target.timeouts)}`);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw storeError(err, target);
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}

/** Runs `fn` in one transaction on a connection of its own (a lock's): rolled back if it throws. */
export async function onOneConnection<T>(client: ClientBase, timeouts: Timeouts, fn: () => Promise<T>): Promise<T> {
  await client.query(`BEGIN; ${limitsSql(timeouts)}`);
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot roll back is gone, and the lock with it: its owner hears of that.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03']);

/** True when `err` says the server is down, unreachable, or dropped the connection. */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08')) return true;
  // The server answered with an error of its own (a SQLSTATE): it is there, whatever its text says
  // ("canceling statement due to statement timeout" is not a network timeout).
  if (/^[0-9A-Z]{5}$/.test(code)) return false;
  const message = err instanceof Error ? err.message : String(err);
  return /timeout|Connection terminated|not queryable|Client has encountered a connection error|Connection ended/i.test(message);
}

/**
 * `err` as chatkeep shows it: the server unreachable → `StoreUnavailableError`; a refused login
 * or a missing database → `UserError` (exit 2); anything else keeps its class, its text
 * scrubbed of the password (node-postgres may quote the connection string).
 */
export function storeError(err: unknown, target: Target): Error {
  if (err instanceof ChatkeepError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const reason = scrub(raw || 'no reason given', target.url);
  const refused = tlsFailure(err, target.tls?.tls) ?? privilegeError(err, reason, target);
  if (refused) return refused;
  // PgBouncer in statement mode runs no transactions (and drops the connection that asks): the
  // lock (one transaction holding the session's row, take-lock.ts) and the writes need them.
  if (/transaction blocks not allowed in statement pool(ing)? mode/i.test(raw)) {
    return new UserError(
      `The PostgreSQL URL ${target.location} goes through a pooler in statement mode, which runs no transactions, so chatkeep cannot keep one writer per session through it. Use a direct URL to the server, or a pool in session or transaction mode.`,
      'E_STORE_POOLER',
    );
  }
  const told = serverRefusal(err, reason, target);
  if (told) return told;
  if (isUnreachable(err)) {
    return new StoreUnavailableError(
      `Cannot reach the session store at ${target.location} (${reason}). Check that the server is running and reachable; chatkeep connects again by itself once it is.`,
    );
  }
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (code === '28P01' || code === '28000') {
    return new UserError(`The PostgreSQL server at ${target.location} refused the login (${reason}). Check the user and password in the store URL.`, 'E_STORE_LOGIN');
  }
  if (code === '3D000') {
    return new UserError(`The PostgreSQL server at ${target.location} has no such database (${reason}). Create it first (createdb), or point the store URL at an existing one.`, 'E_STORE_DATABASE');
  }
  if (err instanceof Error) {
    err.message = reason;
    if (err.stack) err.stack = scrub(err.stack, target.url);
    return err;
  }
  return new Error(reason);
}
