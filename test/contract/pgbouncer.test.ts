/**
 * PostgreSQL through a real PgBouncer (docs/design.md §11, §12): one writer, nothing lost, and no lock left
 * behind, whatever the pooling mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { LockSupersededError, SessionInUseError, UserError } from '../../src/session/api/errors.js';
import type { SessionStore } from '../../src/session/format/store.js';
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { holdInChild } from '../helpers/lock-holder.js';
import { startPgBouncer, type RunningPgBouncer } from '../helpers/pgbouncer.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { messageEvent, savedSession, AT } from './contract-kit.js';

const ADVISORY_SQL = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LOCK_SPACE}::oid AND objsubid = 2
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

describe('PostgreSQL behind PgBouncer', () => {
  let bouncer: RunningPgBouncer;
  let statementBouncer: RunningPgBouncer;
  let sessionBouncer: RunningPgBouncer;
  let direct: string;
  let pooled: string;
  let cwd: string;
  const opened: SessionStore[] = [];
  const open = async (url: string, leaseMs?: number): Promise<SessionStore> => {
    const store = await openPostgresStore(url, { interpreter, cwd, ...(leaseMs !== undefined ? { timeouts: { leaseMs } } : {}) });
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    const admin = inject('postgresAdminUrl');
    [bouncer, statementBouncer, sessionBouncer] = await Promise.all([startPgBouncer(admin), startPgBouncer(admin, 'statement'), startPgBouncer(admin, 'session')]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([bouncer?.stop(), statementBouncer?.stop(), sessionBouncer?.stop()]);
  });
  beforeEach(async () => {
    direct = await createDatabase(inject('postgresAdminUrl'));
    pooled = bouncer.url(direct);
    cwd = await mkdtemp(join(tmpdir(), 'chatkeep-pgbouncer-'));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('transaction pooling: a second writer is refused naming the holder, no advisory lock is taken, and the holder writes on', async () => {
    const saved = await savedSession(await open(direct), AT, ['one']);
    const a = await open(pooled);
    await a.locate(saved.id);
    const lock = await a.lock(saved.id, () => undefined);
    const log = await a.openLog(saved.id, lock);
    await log.append(messageEvent(1, 'user', 'first'), true);

    const b = await open(pooled);
    await b.locate(saved.id);
    const refused = await b.lock(saved.id, () => undefined).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as SessionInUseError).owner).toMatchObject({ pid: process.pid });
    // Nor may a direct client write while the lease is held.
    const c = await open(direct);
    await c.locate(saved.id);
    expect(await c.lock(saved.id, () => undefined).catch((err: unknown) => err)).toBeInstanceOf(SessionInUseError);
    expect(await c.inspectLock(saved.id)).toMatchObject({ state: 'held', owner: { pid: process.pid } });
    expect((await c.list([c.project])).map((r) => r.status)).toEqual(['open']);

    expect(await runSql(direct, ADVISORY_SQL)).toEqual([{ n: 0 }]);
    await log.append(messageEvent(2, 'user', 'second'), true);
    await log.close();
    await lock.release();
    const loaded = await c.load(saved.id, { now: AT, quarantine: false });
    expect(loaded.events.map((e) => (e.payload.message as { content: string }).content)).toEqual(['first', 'second']);
  });

  it('transaction pooling: a holder killed with kill -9 leaves no lock behind: a direct client takes the session at once', async () => {
    const saved = await savedSession(await open(direct), AT, ['one']);
    const child = await holdInChild('postgres', pooled, saved.id, cwd);
    const c = await open(direct);
    await c.locate(saved.id);
    expect(await c.lock(saved.id, () => undefined).catch((err: unknown) => err)).toBeInstanceOf(SessionInUseError);
    await child.kill9();
    expect(await runSql(direct, ADVISORY_SQL)).toEqual([{ n: 0 }]);
    // The lease has 20 s to run, but its holder on this host is gone (by identity): free now.
    const started = Date.now();
    const lock = await c.lock(saved.id, () => undefined);
    expect(Date.now() - started).toBeLessThan(5_000);
    await lock.release();
  });

  it('transaction pooling: a holder whose lease ran out is superseded, and writes nothing more', async () => {
    const saved = await savedSession(await open(direct), AT, ['one']);
    const a = await open(pooled, 2_000);
    await a.locate(saved.id);
    let lost: Error | undefined;
    const lock = await a.lock(saved.id, (err) => (lost = err));
    const log = await a.openLog(saved.id, lock);
    await log.append(messageEvent(1, 'user', 'acknowledged'), true);
    // As if it were frozen past its lease: its holder row runs out, and another process takes over.
    await runSql(direct, `UPDATE chatkeep.holders SET expires_at = now() - interval '1 second', host = 'elsewhere' WHERE session_id = $1`, [saved.id]);
    const b = await open(pooled, 2_000);
    await b.locate(saved.id);
    const taken = await b.lock(saved.id, () => undefined);
    expect(taken.epoch).toBeGreaterThan(lock.epoch!);
    await expect(log.append(messageEvent(2, 'user', 'from the old epoch'), true)).rejects.toBeInstanceOf(LockSupersededError);
    expect(lost).toBeInstanceOf(LockSupersededError);
    const loaded = await b.load(saved.id, { now: AT, quarantine: false });
    expect(loaded.events.map((e) => (e.payload.message as { content: string }).content)).toEqual(['acknowledged']);
    await log.close();
    await taken.release();
  });

  it('any pooler is told apart from a direct connection (a lease behind session pooling too); statement pooling is refused in one line naming the fix', async () => {
    const saved = await savedSession(await open(direct), AT, ['one']);
    const held = async (url: string): Promise<unknown[]> => {
      const store = await open(url);
      await store.locate(saved.id);
      const lock = await store.lock(saved.id, () => undefined);
      const seen = [(await runSql(direct, ADVISORY_SQL))[0], (await runSql<{ leased: boolean }>(direct, 'SELECT expires_at IS NOT NULL AS leased FROM chatkeep.holders'))[0]];
      await lock.release();
      return seen;
    };
    expect(await held(direct)).toEqual([{ n: 1 }, { leased: false }]);
    expect(await held(sessionBouncer.url(direct))).toEqual([{ n: 0 }, { leased: true }]);
    expect(await held(pooled)).toEqual([{ n: 0 }, { leased: true }]);

    const refused = await open(statementBouncer.url(direct)).then(async (store) => {
      await store.locate(saved.id);
      return store.lock(saved.id, () => undefined);
    }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).message).toBe(
      `The PostgreSQL URL ${new URL(statementBouncer.url(direct)).toString().replace(/:[^:@/]+@/, ':***@')} goes through a pooler in statement mode, which runs no transactions, so chatkeep cannot keep one writer per session through it. Use a direct URL to the server, or a pool in session or transaction mode.`,
    );
  });

  it('the chat through transaction pooling: a second chatkeep on a held session exits 3, and what the first acknowledged stays', async () => {
    const home = tmpHome();
    const through = (url: string) => ({ home, cwd, env: { CHATKEEP_STORE: url } });
    const first = await runPiped([], 'hello one\nhello two\n/quit\n', through(pooled));
    expect(first.code).toBe(0);
    const id = /session-\d{8}-\d{6}/.exec(first.stdout + first.stderr)![0];
    const child = await holdInChild('postgres', pooled, id, cwd);
    const second = await runPiped(['--session-id', id], 'lost?\n', through(pooled));
    expect(second.code, `stderr: ${second.stderr}\nstdout: ${second.stdout}`).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`^chatkeep: Session ${id} is in use by process ${child.pid} on `));
    await child.kill9();
    const third = await runPiped(['--session-id', id], 'hello three\n/quit\n', through(pooled));
    expect(third.code).toBe(0);
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', through(direct));
    const messages = (JSON.parse(shown.stdout) as { messages: { role: string; content: string }[] }).messages;
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hello one', 'hello two', 'hello three']);
  }, 60_000);
});
