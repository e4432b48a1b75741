/**
 * A database of 10,000 sessions at the schema before the append function (event-log.ts), upgraded
 * by this build: every row as it was, and a session stored before appended to through PgBouncer
 * (the function) and directly (the prepared statement), each after what was there. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/format/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { APPEND_FUNCTION_MIGRATION } from '../../src/store/postgres/event-log.js';
import type { PgLock } from '../../src/store/postgres/lock.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { usePgBouncer } from '../helpers/use-pgbouncer.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, fillWithSessions, schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';

const SESSIONS = 10_000;

const event = (seq: number, content: string): SessionEvent => ({ seq, id: `up-ev-${seq}`, ts: '2025-11-24T11:00:00.000Z', type: 'message', payload: { role: 'user', content } });

describe('PostgreSQL schema upgrade to the append function', () => {
  const bouncer = usePgBouncer();

  it('keeps every row of a 10,000-session database, and a session stored before takes appends through PgBouncer and directly', async () => {
    const url = await databaseBefore(APPEND_FUNCTION_MIGRATION);
    await fillWithSessions(url, 'ap-', SESSIONS);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);
    expect(before[0]).toMatchObject({ events: 2 * SESSIONS });

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-append-upgrade-'));
    const stores: PostgresStore[] = [];
    try {
      stores.push(await openPostgresStore(url, { interpreter, cwd }));
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      stores.push(await openPostgresStore(bouncer.url(url), { interpreter, cwd }));
      const [direct, pooled] = stores as [PostgresStore, PostgresStore];
      for (const [store, seq, isDirect] of [[pooled, 3, false], [direct, 4, true]] as const) {
        const lock = (await store.lock('ap-5000', () => undefined)) as PgLock;
        expect(lock.direct).toBe(isDirect);
        const log = await store.openLog('ap-5000', lock);
        await log.append(event(seq, `appended ${seq}`), true);
        await log.close();
        await lock.release();
      }
      const loaded = await direct.load('ap-5000', { quarantine: false, now: new Date() });
      expect(loaded.events.map((e) => (e.payload as { content: string }).content)).toEqual(['message 1 of 5000', 'message 2 of 5000', 'appended 3', 'appended 4']);
    } finally {
      for (const s of stores) await s.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
