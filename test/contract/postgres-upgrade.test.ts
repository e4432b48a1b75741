/**
 * A database made by the schema before row security by operation (version 6: lock keys a
 * sequence in the sessions' rows) upgraded by this build: nothing lost, every session given a
 * random lock key that its writer takes. (A build that knows only version 6 refuses the result as
 * any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, inject, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseAtVersion, schemaVersion } from '../helpers/schema-at.js';
import { tmpHome } from '../helpers/tmp-home.js';

const ID = 'session-20251124-101010';
const BEFORE = 6;

describe('PostgreSQL schema upgrade to row security by operation', () => {
  it('keeps every session and event of a version-6 database and gives each session a random lock key its writer takes', async () => {
    expect(STORE_SCHEMA_VERSION).toBeGreaterThan(BEFORE);
    const url = await databaseAtVersion(inject('postgresAdminUrl'), BEFORE);
    await runSql(url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ('k', '/old', 'h')");
    await runSql(url, 'INSERT INTO chatkeep.ids (id) VALUES ($1)', [ID]);
    await runSql(url, "INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at, title) VALUES ($1, 'k', '/old', now(), now(), 'kept')", [ID]);
    for (const [seq, role, content] of [[1, 'user', 'kept question'], [2, 'assistant', 'kept answer']] as const) {
      await runSql(url, "INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, $2, now(), 'message', $3)", [
        ID,
        seq,
        JSON.stringify({ message: { role, content, timestamp: new Date().toISOString() } }),
      ]);
    }
    const dump = async (): Promise<unknown[]> => runSql(url, 'SELECT seq, type, payload::text FROM chatkeep.events ORDER BY seq');
    const events = await dump();

    const store = await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') });
    try {
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await dump()).toEqual(events);
      expect(await runSql(url, 'SELECT session_id, key > 0 AS positive FROM chatkeep.lock_keys')).toEqual([{ session_id: ID, positive: true }]);
      expect(await runSql(url, "SELECT 1 FROM information_schema.columns WHERE table_schema = 'chatkeep' AND table_name = 'sessions' AND column_name = 'lock_key'")).toEqual([]);
      const loaded = await store.load(ID, { quarantine: false, now: new Date() });
      expect(loaded.events.map((e) => e.seq)).toEqual([1, 2]);
      const lock = await store.lock(ID, () => undefined);
      expect(await store.inspectLock(ID)).toMatchObject({ state: 'held' });
      await lock.release();
    } finally {
      await store.close();
    }

    expect(await dump()).toEqual(events);
  });
});
