/**
 * A team's database of 10,000 sessions at the schema before a session's events went with it by a
 * trigger instead of a foreign key (events-cascade.ts), upgraded by this build: every row as it
 * was, no foreign key left on `events`, and deleting a session still deletes its events, whoever
 * may delete it: the owner emptying her trash (the session she appended to through her lock
 * first), never a member the session is shared with for writing. (A build that knows only the
 * schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { EVENTS_CASCADE_MIGRATION } from '../../src/store/postgres/events-cascade.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';
import { twoMembersBefore } from '../helpers/two-members-before.js';

const SESSIONS = 10_000;

const EVENTS_OF = 'SELECT session_id, count(*)::int AS n FROM chatkeep.events WHERE session_id = ANY($1) GROUP BY session_id ORDER BY session_id';
const FOREIGN_KEYS_SQL = "SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'chatkeep.events'::regclass AND contype = 'f'";

describe('PostgreSQL schema upgrade to a session\'s events deleted by a trigger', () => {
  it('keeps every row of a 10,000-session database, and a deleted session\'s events go with it, deleted only by whoever may delete it', { timeout: 120_000 }, async () => {
    // The first member owns the even sessions, the other the odd ones; each has two events.
    const { url, a, b } = await twoMembersBefore(EVENTS_CASCADE_MIGRATION, 'ec', SESSIONS);
    await runSql(url, 'INSERT INTO chatkeep.shares (session_id, grantee, owner, writable) VALUES ($1, $2, $3, true)', ['eca-6', b.role, a.role]);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);
    expect(before[0]).toMatchObject({ events: 2 * SESSIONS });
    expect(await runSql(url, FOREIGN_KEYS_SQL)).toEqual([{ n: 1 }]);

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-events-cascade-upgrade-'));
    try {
      // Setting the team up migrates the schema as its owner, as `chatkeep team setup` does.
      await withPool(url, {}, (pool, target) => setupTeam(pool, target, [a.role, b.role], false), { migrate: false });
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      expect(await runSql(url, FOREIGN_KEYS_SQL)).toEqual([{ n: 0 }]);

      const store = await openPostgresStore(a.url, { interpreter, cwd });
      try {
        const lock = await store.lock('eca-2', () => undefined);
        const log = await store.openLog('eca-2', lock);
        await log.append({ seq: 3, id: 'ec-3', ts: '2026-11-24T11:00:00.000Z', type: 'message', payload: { role: 'user', content: 'appended to eca-2' } }, true);
        await log.close();
        await lock.release();
        const ids = ['eca-2', 'eca-4', 'eca-6', 'eca-8'];
        expect(await runSql(url, EVENTS_OF, [ids])).toEqual(ids.map((id) => ({ session_id: id, n: id === 'eca-2' ? 3 : 2 })));

        // The member the session is shared with for writing cannot delete it, nor its events.
        expect(await runSql(b.url, 'WITH gone AS (DELETE FROM chatkeep.sessions WHERE id = $1 RETURNING id) SELECT count(*)::int AS n FROM gone', ['eca-6'])).toEqual([{ n: 0 }]);
        expect(await runSql(b.url, 'WITH gone AS (DELETE FROM chatkeep.events WHERE session_id = $1 RETURNING seq) SELECT count(*)::int AS n FROM gone', ['eca-6'])).toEqual([{ n: 0 }]);

        await store.trash.put('eca-2');
        await store.trash.put('eca-4');
        expect(await store.trash.empty()).toEqual(expect.arrayContaining(['eca-2', 'eca-4']));
        expect(await runSql(url, EVENTS_OF, [ids])).toEqual([{ session_id: 'eca-6', n: 2 }, { session_id: 'eca-8', n: 2 }]);
        expect(await runSql<{ n: number }>(url, 'SELECT count(*)::int AS n FROM chatkeep.events')).toEqual([{ n: 2 * SESSIONS - 4 }]);
        // No event is left whose session is gone.
        expect(await runSql(url, 'SELECT count(*)::int AS n FROM chatkeep.events e WHERE NOT EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = e.session_id)')).toEqual([{ n: 0 }]);
      } finally {
        await store.close();
      }
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
