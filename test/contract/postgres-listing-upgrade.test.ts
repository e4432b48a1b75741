/**
 * A team's database of 10,000 sessions at the schema before the listing by owner, upgraded by
 * this build: every row of every table as it was, a sample's messages as they were, and each
 * member's listing (own rows, a shared one) what the rows say, over the new index. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LISTING_BY_OWNER_MIGRATION } from '../../src/store/postgres/listing-index.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { LIST_SQL } from '../../src/store/postgres/reading.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { serverFunctions } from '../helpers/server-function.js';
import { databaseBefore, schemaVersion, SESSION_ROW } from '../helpers/schema-at.js';
import { person } from '../helpers/team.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/** Every row of the tables that hold what people wrote, in a fixed order: equal digests, nothing lost or changed. */
const DIGEST_SQL = `SELECT
  (SELECT count(*)::int FROM chatkeep.sessions) AS sessions, (SELECT count(*)::int FROM chatkeep.events) AS events,
  (SELECT md5(string_agg(${SESSION_ROW}, '|' ORDER BY s.id)) FROM chatkeep.sessions s) AS session_rows,
  (SELECT md5(string_agg(e.session_id || e.seq || e.payload::text, '|' ORDER BY e.session_id, e.seq)) FROM chatkeep.events e) AS event_rows,
  (SELECT md5(string_agg(i::text, '|' ORDER BY i.id)) FROM chatkeep.ids i) AS id_rows,
  (SELECT md5(string_agg(p::text, '|' ORDER BY p.owner, p.key)) FROM chatkeep.projects p) AS project_rows,
  (SELECT md5(string_agg(k::text, '|' ORDER BY k.session_id)) FROM chatkeep.lock_keys k) AS lock_key_rows`;

describe('PostgreSQL schema upgrade to the listing by owner', () => {
  it('keeps every row of a 10,000-session team database, and each member lists their own and shared sessions over the new index', async () => {
    const url = await databaseBefore(LISTING_BY_OWNER_MIGRATION);
    const [a, b] = [await person(url, 'upa'), await person(url, 'upb')];
    // Two members' sessions across 5 projects both work in, each of 2 messages (as events past no snapshot).
    const owners = [a.role, b.role];
    await runSql(url, "INSERT INTO chatkeep.projects (key, path, host, owner) SELECT 'p' || p, '/p' || p, 'h', r FROM generate_series(0, 4) p, unnest($1::text[]) r", [owners]);
    await runSql(url, "INSERT INTO chatkeep.ids (id, owner) SELECT 'up-' || n, ($1::text[])[n % 2 + 1] FROM generate_series(1, $2::int) n", [owners, SESSIONS]);
    await runSql(
      url,
      `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status)
       SELECT 'up-' || n, ($1::text[])[n % 2 + 1], 'p' || (n / 2 % 5), '/p' || (n / 2 % 5), 'Session ' || n,
         timestamptz '2025-11-24 10:00Z' - n * interval '1 minute', timestamptz '2025-11-24 10:00Z' - n * interval '1 minute', 'closed'
       FROM generate_series(1, $2::int) n`,
      [owners, SESSIONS],
    );
    await runSql(
      url,
      `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload)
       SELECT 'up-' || n, k, timestamptz '2025-11-24 10:00Z' - n * interval '1 minute', 'message',
         json_build_object('message', json_build_object('role', CASE k WHEN 1 THEN 'user' ELSE 'assistant' END, 'content', 'message ' || k || ' of ' || n,
           'timestamp', '2025-11-24T10:00:00.000Z'))
       FROM generate_series(1, $1::int) n, generate_series(1, 2) k`,
      [SESSIONS],
    );
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('up-3', $1, $2)", [a.role, b.role]);
    const before = await runSql(url, DIGEST_SQL);
    expect(before[0]).toMatchObject({ sessions: SESSIONS, events: 2 * SESSIONS });

    const cwd = tmpHome('chatkeep-upgrade-');
    const admin = await openPostgresStore(url, { interpreter, cwd });
    try {
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, DIGEST_SQL)).toEqual(before);
      for (const n of [1, 5000, SESSIONS]) {
        const loaded = await admin.load(`up-${n}`, { quarantine: false, now: new Date() });
        expect(loaded.events.map((e) => (e.payload as { message: { content: unknown } }).message.content)).toEqual([`message 1 of ${n}`, `message 2 of ${n}`]);
      }
      expect((await admin.list([{ ...admin.project, key: 'p0' } as ProjectInfo])).length).toBe(SESSIONS / 5);
    } finally {
      await admin.close();
    }

    await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
    await runSql(url, 'ANALYZE');
    const member = await openPostgresStore(a.url, { interpreter, cwd });
    try {
      const own = await runSql<{ id: string }>(url, "SELECT id FROM chatkeep.sessions WHERE owner = $1 AND project_key = 'p1' ORDER BY updated_at DESC", [a.role]);
      expect(own.length).toBe(SESSIONS / 10);
      const listed = await member.list([{ ...member.project, key: 'p1' } as ProjectInfo]);
      // up-3 (the other member's, in p1) is shared with this one, newer than all but two of theirs.
      expect(listed.map((r) => r.id)).toEqual(['up-2', 'up-3', ...own.slice(1).map((r) => r.id)]);
      expect(listed[1]).toMatchObject({ owner: b.role, messageCount: 2 });
      // Listed by the function a later migration added (listing-sql.ts): the same rows as the query it runs.
      const direct = await runSql<{ id: string }>(a.url, LIST_SQL, [['p1']]);
      expect(direct.map((r) => r.id)).toEqual(listed.map((r) => r.id));
      expect(await serverFunctions(url, 'listing')).toHaveLength(1);
    } finally {
      await member.close();
    }
    // The member's listing reads their own rows over the index, not the project's every row.
    const plan = (await runSql<{ 'QUERY PLAN': string }>(a.url, `EXPLAIN ${LIST_SQL.replace('$1', "ARRAY['p1']")}`)).map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/sessions_by_project_owner[^\n]*\n\s*Index Cond: \(\(project_key = ANY [^\n]*\) AND \(owner = /);
    expect(await runSql(url, DIGEST_SQL)).toEqual(before);
  });
});
