/**
 * A team's database of 2,000 sessions with search rows, at the schema before search rows carried
 * their owner, upgraded by this build: every search row as it was, each now naming its session's
 * owner; a row naming anyone else refused, the admin's too; and each member's search what row
 * security allows (own sessions, a shared one), its own rows passing by their owner. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { SEARCH_OWNER_MIGRATION } from '../../src/store/postgres/search-owner.js';
import { SEARCH_LIKE_SETTING } from '../../src/store/postgres/search-narrowing.js';
import { matchStatement } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { explainRowsRead } from '../helpers/plan-rows.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { twoInOneProject } from '../helpers/team.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 2_000;

/** Every search row, its owner aside: equal digests, nothing lost or changed. */
const DIGEST_SQL = `SELECT (SELECT count(*)::int FROM chatkeep.search_messages) AS messages,
  (SELECT md5(string_agg(concat_ws(',', d.session_id, d.snapshot_version, d.seq, d.messages, d.archived, d.tail, d.title, d.folded_title), '|'
    ORDER BY d.session_id)) FROM chatkeep.search_sessions d) AS facts,
  (SELECT md5(string_agg(concat_ws(',', m.session_id, m.n, m.role, m.at, m.archived, m.content::text, m.folded, m.grams::text), '|'
    ORDER BY m.session_id, m.n)) FROM chatkeep.search_messages m) AS message_rows`;

/** Search rows whose owner is not their session's (or missing). */
const WRONG_OWNER_SQL = `SELECT
  (SELECT count(*)::int FROM chatkeep.search_sessions d LEFT JOIN chatkeep.sessions s ON s.id = d.session_id WHERE d.owner IS DISTINCT FROM s.owner) AS facts,
  (SELECT count(*)::int FROM chatkeep.search_messages m LEFT JOIN chatkeep.sessions s ON s.id = m.session_id WHERE m.owner IS DISTINCT FROM s.owner) AS messages`;

describe('PostgreSQL schema upgrade to search rows that carry their owner', () => {
  it("names each search row's owner, keeps every row, refuses a wrong owner, and each member finds what they may read", async () => {
    const url = await databaseBefore(SEARCH_OWNER_MIGRATION);
    // Two members' sessions in one project, each with its search facts and three messages; `heron` in one of each's.
    const { a, b, owners, sessions } = await twoInOneProject(url, 'so', SESSIONS);
    await runSql(
      url,
      `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
       SELECT id, owner, 'p', '/p', 'Session ' || n, now(), now(), 'closed', 1, 3 FROM (${sessions}) x`,
      [owners],
    );
    await runSql(
      url,
      `INSERT INTO chatkeep.search_sessions (session_id, snapshot_version, seq, messages, archived, tail, title, folded_title)
       SELECT id, 1, 0, 3, 0, 't' || n, 'Session ' || n, 'session ' || n FROM (${sessions}) x`,
      [owners],
    );
    await runSql(
      url,
      `INSERT INTO chatkeep.search_messages (session_id, n, role, at, archived, content, folded)
       SELECT id, k, 'user', k, false, to_json('message ' || k || ' of ' || n), 'message ' || k || ' of ' || n || CASE WHEN n <= 2 AND k = 1 THEN ' heron' ELSE '' END
       FROM (${sessions}) x, generate_series(0, 2) k`,
      [owners],
    );
    // so-1 is b's (n % 2 + 1 = 2), shared with a; so-2 is a's.
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('so-1', $1, $2)", [a.role, b.role]);
    const before = await runSql(url, DIGEST_SQL);
    expect(before[0]).toMatchObject({ messages: 3 * SESSIONS });

    const cwd = tmpHome('chatkeep-upgrade-');
    await (await openPostgresStore(url, { interpreter, cwd })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGEST_SQL)).toEqual(before);
    expect(await runSql(url, WRONG_OWNER_SQL)).toEqual([{ facts: 0, messages: 0 }]);
    expect(await runSql(url, 'SELECT count(DISTINCT owner)::int AS n FROM chatkeep.search_messages')).toEqual([{ n: 2 }]);
    // Not even the admin, to whom no policy applies, can make a row name another owner than its session's.
    await expect(runSql(url, "UPDATE chatkeep.search_messages SET owner = $1 WHERE session_id = 'so-1'", [a.role])).rejects.toMatchObject({ code: '23503' });
    await expect(runSql(url, "UPDATE chatkeep.search_sessions SET owner = $1 WHERE session_id = 'so-1'", [a.role])).rejects.toMatchObject({ code: '23503' });

    await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
    await runSql(url, 'ANALYZE');
    // A member writes no search row for another's session, whichever owner it names.
    for (const owner of owners) {
      await expect(
        runSql(a.url, "INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded) VALUES ('so-3', $1, 9, 'user', 0, false, '\"x\"', 'x')", [owner]),
      ).rejects.toMatchObject({ code: '42501' });
    }
    const member = await openPostgresStore(a.url, { interpreter, cwd });
    try {
      const found = await member.searchSessions('heron', [{ ...member.project, key: 'p' } as ProjectInfo], {});
      expect(found.results.map((r) => r.session.id).sort()).toEqual(['so-1', 'so-2']);
      expect(found.total).toBe(2);
      expect((await member.searchSessions('message 0 of', [{ ...member.project, key: 'p' } as ProjectInfo], { limit: 0 })).total).toBe(SESSIONS / 2 + 1);
    } finally {
      await member.close();
    }
    // a's own sessions are read once (the listing's columns), not again for each of their search rows.
    const client = new pg.Client({ connectionString: a.url });
    await client.connect();
    try {
      await client.query(`BEGIN; SET LOCAL ${SEARCH_LIKE_SETTING} = '%heron%'`);
      expect(await explainRowsRead(client, matchStatement('trgm'), [['p'], 'heron', '%heron%'], new Set(['sessions']))).toBeLessThan(SESSIONS / 2 + 50);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
