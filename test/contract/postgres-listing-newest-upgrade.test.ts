/**
 * A team's database at the schema before the listing's limit, upgraded by this build: every row
 * of every table as it was, the one-argument `chatkeep.listing` replaced by the one with a limit,
 * and a member's newest-N listing what the rows say. (A build that knows only the schema before
 * refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LISTING_NEWEST_MIGRATION } from '../../src/store/postgres/listing-sql.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { serverFunctions } from '../helpers/server-function.js';
import { databaseBefore, fillTwoMembers, schemaVersion, SESSION_ROW } from '../helpers/schema-at.js';
import { person } from '../helpers/team.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 2_000;

const DIGEST_SQL = `SELECT (SELECT count(*)::int FROM chatkeep.sessions) AS sessions,
  (SELECT md5(string_agg(${SESSION_ROW}, '|' ORDER BY s.id)) FROM chatkeep.sessions s) AS session_rows,
  (SELECT md5(string_agg(i::text, '|' ORDER BY i.id)) FROM chatkeep.ids i) AS id_rows,
  (SELECT md5(string_agg(p::text, '|' ORDER BY p.owner, p.key)) FROM chatkeep.projects p) AS project_rows,
  (SELECT md5(string_agg(k::text, '|' ORDER BY k.session_id)) FROM chatkeep.lock_keys k) AS lock_key_rows,
  (SELECT md5(string_agg(sh::text, '|' ORDER BY sh.session_id)) FROM chatkeep.shares sh) AS share_rows`;

describe('PostgreSQL schema upgrade to the listing with a limit', () => {
  it('keeps every row, replaces the listing function, and a member lists their newest sessions', async () => {
    const url = await databaseBefore(LISTING_NEWEST_MIGRATION);
    const [a, b] = [await person(url, 'nua'), await person(url, 'nub')];
    const owners = [a.role, b.role];
    await fillTwoMembers(url, 'nu-', [a.role, b.role], SESSIONS);
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('nu-1001', $1, $2)", [a.role, b.role]);
    expect((await serverFunctions(url, 'listing')).map((f) => f.args)).toEqual(['keys text[]']);
    const before = await runSql(url, DIGEST_SQL);

    const cwd = tmpHome('chatkeep-upgrade-');
    await (await openPostgresStore(url, { interpreter, cwd })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGEST_SQL)).toEqual(before);
    expect((await serverFunctions(url, 'listing')).map((f) => f.args)).toEqual(['keys text[], newest integer']);

    await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
    const member = await openPostgresStore(a.url, { interpreter, cwd });
    try {
      const own = await runSql<{ id: string }>(url, "SELECT id FROM chatkeep.sessions WHERE owner = $1 AND project_key = 'p0' ORDER BY updated_at DESC", [a.role]);
      const p0 = { ...member.project, key: 'p0' } as ProjectInfo;
      const listed = await member.list([p0], { newest: 10 });
      // nu-1001 (the other member's, in p0) is shared with this one: in time, between nu-1000 and nu-1004.
      const older = own.map((r) => r.id).filter((id) => Number(id.slice(3)) > 1001);
      expect(listed.map((r) => r.id)).toEqual([...own.map((r) => r.id).filter((id) => Number(id.slice(3)) < 1001), 'nu-1001', ...older].slice(0, 10));
      expect(listed.map((r) => r.id)).toEqual((await member.list([p0])).slice(0, 10).map((r) => r.id));
      expect(await member.list([p0])).toHaveLength(own.length + 1);
    } finally {
      await member.close();
    }
    expect(await runSql(url, DIGEST_SQL)).toEqual(before);
  });
});
