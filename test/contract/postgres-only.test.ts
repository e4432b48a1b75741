/** What only the PostgreSQL store has to prove: its schema, its connections, its server going away, its password (adopting: postgres-adopt.test.ts). */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FutureStoreSchemaError, ReadOnlySessionError, SessionInUseError, StoreUnavailableError, UserError } from '../../src/session/api/errors.js';
import type { SessionEvent, SessionStore, WriterLock } from '../../src/session/format/store.js';
import { LIST_SQL } from '../../src/store/postgres/reading.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { redactUrl } from '../../src/store/postgres/url.js';
import { TEST_PASSWORD, freePort, runSql, startPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/eventually.js';
import { migrateTo, schemaVersion } from '../helpers/schema-at.js';
import { startProxy } from '../helpers/tcp-proxy.js';
import { storeEachTest } from '../helpers/store-each-test.js';

const AT = new Date('2026-11-23T10:20:30.000Z');
const event = (seq: number, content: string): SessionEvent => ({ seq, ts: AT.toISOString(), type: 'message', payload: { role: 'user', content } });
const noLoss = (): void => undefined;

/** Takes `id`'s lock, with the error its loss reports (a promise that settles only if it is lost). */
async function lockWatched(store: SessionStore, id: string): Promise<{ lock: WriterLock; lost: Promise<Error> }> {
  let report: (err: Error) => void = noLoss;
  const lost = new Promise<Error>((resolve) => (report = resolve));
  return { lock: await store.lock(id, (err) => report(err)), lost };
}

/** The error `promise` rejects with (failing the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as Error,
  );
}

describe('PostgreSQL store', () => {
  const each = storeEachTest('pg-only');
  const open = each.open;
  let url: string;
  let cwd: string;
  /** The test server's password (every message is checked for it). */
  let secret: string;

  beforeEach(() => {
    ({ url, cwd } = each);
    secret = decodeURIComponent(new URL(url).password);
  });

  it('shows where it is without the password', async () => {
    const store = await open();
    // A URL with a password is what these tests need (CHATKEEP_TEST_DATABASE_URL included).
    expect(secret.length).toBeGreaterThanOrEqual(4);
    expect(store.location).toBe(redactUrl(url));
    expect(store.location).not.toContain(secret);
    expect(store.kind).toBe('postgres');
  });

  it('knows the projects sessions were kept in, and records a problem a reading found', async () => {
    const store = await open();
    const empty = await mkdtemp(join(tmpdir(), 'chatkeep-pg-empty-'));
    try {
      expect(await store.projectAt(cwd)).toEqual(store.project);
      expect(await store.projectAt(empty)).toBeUndefined();
      const id = await store.reserveId(AT, store.project);
      const [row] = await store.list([store.project]);
      await store.noteProblem({ ...row!, problem: { kind: 'damaged', detail: 'snapshot: not JSON' } }, store.project);
      expect((await store.list([store.project]))[0]?.problem).toEqual({ kind: 'damaged', detail: 'snapshot: not JSON' });
      expect(store.where(id)).toEqual({ location: `${redactUrl(url)} (session ${id})` });
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('refuses a database whose schema a newer chatkeep made, and leaves it untouched', async () => {
    await (await open()).close();
    await runSql(url, "INSERT INTO chatkeep.migrations (version, tool_version) VALUES (99, '9.0.0')");
    const look = async (): Promise<unknown> => [
      await runSql(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'chatkeep' ORDER BY 1"),
      await runSql(url, 'SELECT version, tool_version FROM chatkeep.migrations ORDER BY 1'),
    ];
    const before = await look();
    const err = await rejection(openPostgresStore(url, { interpreter, cwd }));
    expect(err).toBeInstanceOf(FutureStoreSchemaError);
    expect((err as FutureStoreSchemaError).exitCode).toBe(2);
    expect(err.message).toBe(
      `The session store at ${redactUrl(url)} has schema version 99, newer than this chatkeep understands (${STORE_SCHEMA_VERSION}). Upgrade chatkeep to use it; the store was left untouched.`,
    );
    expect(await look()).toEqual(before);
  });

  it('two stores opening a new database at once create its schema once', async () => {
    await Promise.all([open(), open(), open()]);
    const versions = Array.from({ length: STORE_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 }));
    expect(await runSql(url, 'SELECT version FROM chatkeep.migrations ORDER BY 1')).toEqual(versions);
  });

  it('migrates a database of schema version 1 (before the trash and search) and keeps its sessions', async () => {
    await migrateTo(url, 1);
    await runSql(url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ('k', '/old', 'h')");
    await runSql(url, "INSERT INTO chatkeep.ids (id) VALUES ('session-20200101-000000')");
    await runSql(
      url,
      "INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at, title) VALUES ('session-20200101-000000', 'k', '/old', now(), now(), 'kept')",
    );
    const store = await open();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    const oldProject = { ...store.project, key: 'k', path: '/old' } as typeof store.project;
    const [old] = await store.list([oldProject]);
    expect(old).toMatchObject({ id: 'session-20200101-000000', title: 'kept' });
    expect(await store.trash.list()).toEqual([]);
    const found = await store.searchSessions('kept', [oldProject], {});
    expect(found.results.map((r) => [r.session.id, r.matched])).toEqual([['session-20200101-000000', { id: false, title: true, messages: 0 }]]);
  });

  it('compacts exactly the events up to the seq it is given, keeping those past it', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, noLoss);
    const log = await store.openLog(id, lock);
    for (let seq = 1; seq <= 3; seq++) await log.append({ ...event(seq, `m${seq}`), seq }, true);
    await log.compact(2);
    expect((await store.load(id, { now: AT, quarantine: false })).events.map((e) => e.seq)).toEqual([3]);
    await lock.release();
  });

  it('a lock whose connection is cut is lost: onLost fires, stillHeld says so, nothing more is written, another may take it', async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const { lock, lost: lostErr } = await lockWatched(store, id);
    const log = await store.openLog(id, lock);
    await log.append(event(1, 'kept'), true);
    await runSql(url, 'SELECT pg_terminate_backend(backend_pid) FROM chatkeep.holders WHERE session_id = $1', [id]);
    const err = await lostErr;
    // The lock went with its connection: the store is unreachable from here, as far as this lock knows.
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(err.message).toContain(`Cannot reach the session store at ${redactUrl(url)} (terminating connection`);
    expect(err.message).not.toContain(secret);
    expect(await lock.stillHeld()).toBe(false);
    expect(await rejection(log.append(event(2, 'never written'), true))).toBeInstanceOf(ReadOnlySessionError);
    const other = await open();
    const taken = await other.lock(id, noLoss);
    expect((await other.load(id, { now: AT, quarantine: false })).events.map((e) => e.payload.content)).toEqual(['kept']);
    await taken.release();
  });

  it('the server going away: typed errors within seconds, no password; it carries on by itself once the server is back', async () => {
    const server = await startPostgres();
    try {
      const store = await open(server.url, { timeouts: { connectTimeoutMs: 2_000, queryTimeoutMs: 5_000 } });
      const id = await store.reserveId(AT, store.project);
      const { lock, lost: lostErr } = await lockWatched(store, id);
      const log = await store.openLog(id, lock);
      await log.append(event(1, 'before the outage'), true);

      await server.halt();
      expect(await lostErr).toBeInstanceOf(StoreUnavailableError);
      expect(await rejection(log.append(event(2, 'during'), true))).toBeInstanceOf(ReadOnlySessionError);
      const started = Date.now();
      const down = await rejection(store.list([store.project]));
      expect(down).toBeInstanceOf(StoreUnavailableError);
      // "Within seconds": the connect timeout (2 s) and then some, not the minutes of a hang.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(down.message).toMatch(/^Cannot reach the session store at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres \(/);
      const reopen = await rejection(openPostgresStore(server.url, { interpreter, cwd }));
      expect(reopen).toBeInstanceOf(StoreUnavailableError);
      for (const e of [down, reopen]) expect(`${e.message}\n${e.stack}`).not.toContain(TEST_PASSWORD);

      await server.restart();
      const rows = await eventually(() => store.list([store.project]));
      expect(rows.map((r) => [r.id, r.status])).toEqual([[id, 'interrupted']]);
      const again = await store.lock(id, noLoss);
      const loaded = await store.load(id, { now: AT, quarantine: true });
      expect(loaded.events.map((e) => e.payload.content)).toEqual(['before the outage']);
      await again.release();
    } finally {
      await server.stop();
    }
  });

  it('a network cut: the lock is lost; taking it back ends this process’s orphaned connection on the server', async () => {
    const proxy = await startProxy(url);
    try {
      const store = await open(proxy.url, { timeouts: { connectTimeoutMs: 2_000, queryTimeoutMs: 3_000 } });
      const id = await store.reserveId(AT, store.project);
      const { lock, lost: lostErr } = await lockWatched(store, id);
      const log = await store.openLog(id, lock);
      await log.append(event(1, 'before the cut'), true);
      proxy.cut();
      await lostErr;
      expect(await lock.stillHeld()).toBe(false);
      // The server still counts the old connection alive, and its lock held: a stranger is refused.
      const stranger = await open();
      expect(await stranger.inspectLock(id)).toMatchObject({ state: 'held', owner: lock.owner });
      const again = await store.lock(id, noLoss);
      expect(await again.stillHeld()).toBe(true);
      expect(await stranger.inspectLock(id)).toEqual({ state: 'held', owner: again.owner });
      const log2 = await store.openLog(id, again);
      await log2.append(event(2, 'after'), true);
      expect((await stranger.load(id, { now: AT, quarantine: false })).events.map((e) => e.payload.content)).toEqual(['before the cut', 'after']);
      await again.release();
    } finally {
      await proxy.close();
    }
  });

  it('a network gone silent mid-append: StoreUnavailableError after the query timeout, and the lock counts as lost', async () => {
    const proxy = await startProxy(url);
    try {
      const store = await open(proxy.url, { timeouts: { connectTimeoutMs: 1_000, queryTimeoutMs: 1_500 } });
      const id = await store.reserveId(AT, store.project);
      const { lock, lost: lostErr } = await lockWatched(store, id);
      const log = await store.openLog(id, lock);
      proxy.freeze();
      const err = await rejection(log.append(event(1, 'into the void'), true));
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(err.message).toContain('timeout');
      expect(err.message).not.toContain(secret);
      expect(await lostErr).toBeInstanceOf(StoreUnavailableError);
      expect(await lock.stillHeld()).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it('nothing listening: StoreUnavailableError at once', async () => {
    const dead = `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:${await freePort()}/postgres`;
    const err = await rejection(openPostgresStore(dead, { interpreter, cwd }));
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).not.toContain(TEST_PASSWORD);
  });

  it('a server that accepts and never answers: StoreUnavailableError after the connect timeout, not a hang', async () => {
    const sockets: import('node:net').Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const err = await rejection(openPostgresStore(`postgres://u:${TEST_PASSWORD}@127.0.0.1:${port}/db`, { interpreter, cwd, timeouts: { connectTimeoutMs: 1_000 } }));
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(err.message).toContain('timeout');
      expect(err.message).not.toContain(TEST_PASSWORD);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('a wrong password: a one-line UserError that shows neither password', async () => {
    const wrong = new URL(url);
    wrong.password = 'not-the-Password-42';
    const err = await rejection(openPostgresStore(wrong.toString(), { interpreter, cwd }));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(/^The PostgreSQL server at postgres:\/\/postgres:\*\*\*@.* refused the login \(.*\)\. Check the user and password in the store URL\.$/);
    expect(err.message).not.toContain('not-the-Password-42');
    expect(err.message).not.toContain(secret);
  });

  it('refuses a URL that is not PostgreSQL’s', async () => {
    const err = await rejection(openPostgresStore('mysql://u:hunter2@h/db', { interpreter, cwd }));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe('Not a PostgreSQL URL: `mysql://u:***@h/db`. Use postgres://USER:PASSWORD@HOST:PORT/DATABASE.');
  });

  it('lists one project over its index, never reading every session', async () => {
    const store = await open();
    await store.reserveId(AT, store.project);
    // 20,000 sessions in 100 other projects: a listing of one must not scan them.
    await runSql(url, `INSERT INTO chatkeep.projects (key, path, host) SELECT 'p' || n, '/p' || n, 'h' FROM generate_series(1, 100) n`);
    await runSql(url, `INSERT INTO chatkeep.ids (id) SELECT 's' || n FROM generate_series(1, 20000) n`);
    await runSql(
      url,
      `INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at, status)
       SELECT 's' || n, 'p' || (n % 100 + 1), '/p', now(), now() - n * interval '1 second', 'closed' FROM generate_series(1, 20000) n`,
    );
    await runSql(url, 'ANALYZE chatkeep.sessions');
    const plan = (await runSql<{ 'QUERY PLAN': string }>(url, `EXPLAIN ${LIST_SQL.replace('$1', "ARRAY['p7']")}`)).map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('sessions_by_project_owner');
    expect(plan).not.toMatch(/Seq Scan on sessions/);
    expect((await store.list([{ ...store.project, key: 'p7' } as SessionStore['project']])).length).toBe(200);
  });

  it('trash and a writer racing for a session: exactly one of them wins, every time', async () => {
    const trasher = await open();
    const writer = await open();
    for (let round = 0; round < 10; round++) {
      const id = await trasher.reserveId(new Date(AT.getTime() + round * 1000), trasher.project);
      const [trashed, locked] = await Promise.allSettled([trasher.trash.put(id), writer.lock(id, noLoss)]);
      expect([trashed.status, locked.status].filter((s) => s === 'fulfilled')).toHaveLength(1);
      if (locked.status === 'fulfilled') {
        expect((trashed as PromiseRejectedResult).reason).toBeInstanceOf(SessionInUseError);
        await locked.value.release();
      } else {
        expect((locked.reason as Error).constructor.name).toMatch(/^(SessionInUseError|TrashedSessionError)$/);
        expect(await trasher.inspectLock(id)).toEqual({ state: 'free' });
      }
    }
  });
});
