/**
 * A team's database of 10,000 sessions at the schema before the sessions policy for reading had
 * its shares part correlated (append-policy.ts), upgraded by this build: every row as it was, and
 * each member reads exactly the rows she read before. The second member's sessions are shared with
 * the first for reading, for writing, with the whole team, and by a forged share (one that names
 * the first member as the session's owner), which counts for nothing. Read through the store too:
 * the owner appends to her session through its lock (fenced) and resumes it, the first member
 * resumes a session shared with her, and the one behind a forged share is unknown to her. (A
 * build that knows only the schema before refuses the result as any newer schema:
 * postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { READ_POLICY_MIGRATION } from '../../src/store/postgres/append-policy.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { schemaVersion, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';
import { twoMembersBefore } from '../helpers/two-members-before.js';

const SESSIONS = 10_000;

/** What a role reads: the sessions' IDs, and how many events and lock keys follow them. */
const READS_SQL = `SELECT (SELECT md5(string_agg(s.id, '|' ORDER BY s.id)) FROM chatkeep.sessions s) AS sessions,
  (SELECT count(*)::int FROM chatkeep.sessions s) AS session_count,
  (SELECT count(*)::int FROM chatkeep.events e) AS events,
  (SELECT count(*)::int FROM chatkeep.lock_keys k) AS lock_keys`;

/** The sessions a role reads that are not its own. */
const OTHERS_SQL = 'SELECT id FROM chatkeep.sessions WHERE owner <> current_user ORDER BY id';

describe('PostgreSQL schema upgrade to the sessions policy for reading probed by key', () => {
  it('keeps every row of a 10,000-session database, and each member reads what she read before', { timeout: 120_000 }, async () => {
    // The first member owns the even sessions, the other the odd ones; each has two events.
    const { url, a, b } = await twoMembersBefore(READ_POLICY_MIGRATION, 'r', SESSIONS);
    // ra-3 shared with the first member for reading, ra-5 for writing, ra-7 with the team; ra-9's share is forged.
    await runSql(url, `INSERT INTO chatkeep.shares (session_id, grantee, owner, writable) VALUES
      ('ra-3', $1, $2, false), ('ra-5', $1, $2, true), ('ra-7', 'public', $2, false), ('ra-9', $1, $1, true)`, [a.role, b.role]);
    await withPool(url, {}, (pool, target) => setupTeam(pool, target, [a.role, b.role], false), { migrate: false });
    const before = { rows: await runSql(url, TEAM_DIGEST_SQL), a: await runSql(a.url, READS_SQL), b: await runSql(b.url, READS_SQL) };
    expect(before.a).toEqual([expect.objectContaining({ session_count: SESSIONS / 2 + 3, events: 2 * (SESSIONS / 2 + 3) })]);
    expect(await runSql(a.url, OTHERS_SQL)).toEqual([{ id: 'ra-3' }, { id: 'ra-5' }, { id: 'ra-7' }]);

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-read-policy-upgrade-'));
    try {
      await (await openPostgresStore(url, { interpreter, cwd })).close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect({ rows: await runSql(url, TEAM_DIGEST_SQL), a: await runSql(a.url, READS_SQL), b: await runSql(b.url, READS_SQL) }).toEqual(before);
      expect(await runSql(a.url, OTHERS_SQL)).toEqual([{ id: 'ra-3' }, { id: 'ra-5' }, { id: 'ra-7' }]);
      expect(await runSql(b.url, OTHERS_SQL)).toEqual([]);

      const store = await openPostgresStore(a.url, { interpreter, cwd });
      try {
        const lock = await store.lock('ra-2', () => undefined);
        const log = await store.openLog('ra-2', lock);
        await log.append({ seq: 3, id: 'rp-3', ts: '2026-11-24T11:00:00.000Z', type: 'message', payload: { role: 'user', content: 'appended to ra-2' } }, true);
        await log.close();
        await lock.release();
        const content = async (id: string): Promise<string[]> =>
          (await store.load(id, { quarantine: false, now: new Date() })).events.map((e) => (e.payload as { content: string }).content);
        expect(await content('ra-2')).toEqual(['message 1 of ra-2', 'message 2 of ra-2', 'appended to ra-2']);
        expect(await content('ra-3')).toEqual(['message 1 of ra-3', 'message 2 of ra-3']);
        await expect(store.load('ra-9', { quarantine: false, now: new Date() })).rejects.toMatchObject({ name: 'UnknownSessionError' });
      } finally {
        await store.close();
      }
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
