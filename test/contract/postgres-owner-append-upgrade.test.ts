/**
 * A database of 10,000 sessions at the schema before events said whether their session's owner
 * appended them (owner-append.ts), upgraded by this build: every row as it was (each event marked
 * not the owner's, as nothing said so), and a session stored before appended to through PgBouncer
 * (the replaced function) and directly (the prepared statement), each after what was there and
 * marked the owner's, its listing left to the owner. (A build that knows only the schema before
 * refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/format/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { OWNER_APPEND_MIGRATION } from '../../src/store/postgres/owner-append.js';
import type { PgLock } from '../../src/store/postgres/lock.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { usePgBouncer } from '../helpers/use-pgbouncer.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, fillWithSessions, schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';

const SESSIONS = 10_000;

const event = (seq: number, content: string): SessionEvent => ({ seq, id: `up-ev-${seq}`, ts: '2025-11-24T11:00:00.000Z', type: 'message', payload: { role: 'user', content } });

describe('PostgreSQL schema upgrade to the owner\'s append marked', () => {
  const bouncer = usePgBouncer();

  it('keeps every row of a 10,000-session database, and a session stored before takes the owner\'s appends through PgBouncer and directly, marked hers', async () => {
    const url = await databaseBefore(OWNER_APPEND_MIGRATION);
    await fillWithSessions(url, 'oa-', SESSIONS);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);
    expect(before[0]).toMatchObject({ events: 2 * SESSIONS });

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-owner-append-upgrade-'));
    const stores: PostgresStore[] = [];
    try {
      stores.push(await openPostgresStore(url, { interpreter, cwd }));
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      expect(await runSql(url, 'SELECT by_owner, count(*)::int AS n FROM chatkeep.events GROUP BY by_owner')).toEqual([{ by_owner: false, n: 2 * SESSIONS }]);
      const listed = await runSql(url, "SELECT updated_at, journal_seq, message_count FROM chatkeep.sessions WHERE id = 'oa-5000'");
      stores.push(await openPostgresStore(bouncer.url(url), { interpreter, cwd }));
      const [direct, pooled] = stores as [PostgresStore, PostgresStore];
      for (const [store, seq, isDirect] of [[pooled, 3, false], [direct, 4, true]] as const) {
        const lock = (await store.lock('oa-5000', () => undefined)) as PgLock;
        expect(lock.direct).toBe(isDirect);
        const log = await store.openLog('oa-5000', lock);
        await log.append(event(seq, `appended ${seq}`), true);
        await log.close();
        await lock.release();
      }
      const loaded = await direct.load('oa-5000', { quarantine: false, now: new Date() });
      expect(loaded.events.map((e) => (e.payload as { content: string }).content)).toEqual(['message 1 of 5000', 'message 2 of 5000', 'appended 3', 'appended 4']);
      expect(await runSql(url, "SELECT seq::int, by_owner FROM chatkeep.events WHERE session_id = 'oa-5000' AND seq > 2 ORDER BY seq")).toEqual([
        { seq: 3, by_owner: true },
        { seq: 4, by_owner: true },
      ]);
      expect(await runSql(url, "SELECT updated_at, journal_seq, message_count FROM chatkeep.sessions WHERE id = 'oa-5000'")).toEqual(listed);
    } finally {
      for (const s of stores) await s.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
