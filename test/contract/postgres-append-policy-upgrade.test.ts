/**
 * A team's database of 10,000 sessions at the schema before the append's row security was said
 * without the grantee's subqueries in the owner's plan (append-policy.ts), upgraded by this build:
 * every row as it was, and the same rules after. The owner appends to her session and a writable
 * grantee to the session shared with her, each through the store's lock (fenced, after what was
 * there); by hand, a grantee cannot append before the last event, mark an event her own, or append
 * to a session shared with her for reading, nor move that one's epoch, and nobody appends to a
 * session not shared with them. (A build that knows only the schema before refuses the result as
 * any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/format/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { APPEND_POLICY_MIGRATION } from '../../src/store/postgres/append-policy.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';
import { twoMembersBefore } from '../helpers/two-members-before.js';

const SESSIONS = 10_000;

const SHARES_DIGEST_SQL = `SELECT md5(string_agg(sh::text, '|' ORDER BY sh.session_id, sh.grantee)) AS share_rows FROM chatkeep.shares sh`;

const event = (seq: number, content: string): SessionEvent => ({ seq, id: `pol-ev-${seq}`, ts: '2026-11-24T11:00:00.000Z', type: 'message', payload: { role: 'user', content } });

const INSERT_SQL = `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, by_owner) VALUES ($1, $2, now(), 'message', '{}', $3)`;

describe("PostgreSQL schema upgrade to the append's row security without the grantee's subqueries", () => {
  it('keeps every row of a 10,000-session database, and who may append or take a session is as before', { timeout: 120_000 }, async () => {
    // The first member owns the even sessions, the other the odd ones; each has two events.
    const { url, a, b } = await twoMembersBefore(APPEND_POLICY_MIGRATION, 'p', SESSIONS);
    // pa-3 (the other's) shared with the first member for writing, pa-5 for reading.
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner, writable) VALUES ('pa-3', $1, $2, true), ('pa-5', $1, $2, false)", [a.role, b.role]);
    await withPool(url, {}, (pool, target) => setupTeam(pool, target, [a.role, b.role], false), { migrate: false });
    const before = [await runSql(url, SESSIONS_DIGEST_SQL), await runSql(url, SHARES_DIGEST_SQL)];
    expect(before[0]![0]).toMatchObject({ events: 2 * SESSIONS });

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-append-policy-upgrade-'));
    try {
      await (await openPostgresStore(url, { interpreter, cwd })).close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect([await runSql(url, SESSIONS_DIGEST_SQL), await runSql(url, SHARES_DIGEST_SQL)]).toEqual(before);

      const store = await openPostgresStore(a.url, { interpreter, cwd });
      try {
        for (const id of ['pa-2', 'pa-3']) {
          const lock = await store.lock(id, () => undefined);
          const log = await store.openLog(id, lock);
          await log.append(event(3, `appended to ${id}`), true);
          await log.close();
          await lock.release();
          const loaded = await store.load(id, { quarantine: false, now: new Date() });
          expect(loaded.events.map((e) => (e.payload as { content: string }).content)).toEqual([`message 1 of ${id}`, `message 2 of ${id}`, `appended to ${id}`]);
        }
      } finally {
        await store.close();
      }
      const refused = { code: '42501' };
      // Her own session, marked hers; the shared one after the last event, not marked hers.
      await runSql(a.url, INSERT_SQL, ['pa-2', 4, true]);
      await runSql(a.url, INSERT_SQL, ['pa-3', 4, false]);
      await expect(runSql(a.url, INSERT_SQL, ['pa-3', 5, true])).rejects.toMatchObject(refused);
      await expect(runSql(a.url, INSERT_SQL, ['pa-3', 0, false])).rejects.toMatchObject(refused);
      await expect(runSql(a.url, INSERT_SQL, ['pa-5', 3, false])).rejects.toMatchObject(refused);
      await expect(runSql(a.url, INSERT_SQL, ['pa-7', 3, false])).rejects.toMatchObject(refused);
      await expect(runSql(b.url, INSERT_SQL, ['pa-2', 5, false])).rejects.toMatchObject(refused);
      // Taking: the epoch of a session shared for writing moves, of one shared for reading does not.
      const taken = async (id: string): Promise<number> => (await runSql(a.url, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1 RETURNING id', [id])).length;
      expect([await taken('pa-3'), await taken('pa-5'), await taken('pa-7')]).toEqual([1, 0, 0]);
      const events = await runSql<{ session_id: string; seq: string; by_owner: boolean }>(url, "SELECT session_id, seq, by_owner FROM chatkeep.events WHERE seq > 2 ORDER BY session_id, seq");
      expect(events).toEqual([
        { session_id: 'pa-2', seq: '3', by_owner: true },
        { session_id: 'pa-2', seq: '4', by_owner: true },
        { session_id: 'pa-3', seq: '3', by_owner: false },
        { session_id: 'pa-3', seq: '4', by_owner: false },
      ]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
