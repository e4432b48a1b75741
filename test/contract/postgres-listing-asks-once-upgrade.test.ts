/**
 * A team's database at the schema before the listing asked once per call whether its reader sees
 * every row, upgraded by this build (by the team's setup, which brings the schema up to this
 * build's): every row of every table as it was, `chatkeep.listing` now this build's (asking into a
 * variable), the admin's listing (who sees every row) the same rows with the same status as the
 * function before gave them, and each member's what she must see: `open` under a lock held by
 * another connection, `interrupted` for a dead holder's row and for a session left open, a
 * session shared by the other member. (Members can read only once the team is set up, so their
 * listings by the function before cannot be asked on this build.)
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LISTED_SQL, LISTING_ASKS_ONCE_MIGRATION, LISTING_SQL } from '../../src/store/postgres/listing-sql.js';
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
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
  (SELECT md5(string_agg(h::text, '|' ORDER BY h.session_id)) FROM chatkeep.holders h) AS holder_rows,
  (SELECT md5(string_agg(k::text, '|' ORDER BY k.session_id)) FROM chatkeep.lock_keys k) AS lock_key_rows,
  (SELECT md5(string_agg(sh::text, '|' ORDER BY sh.session_id)) FROM chatkeep.shares sh) AS share_rows`;

type Listed = { id: string; live: string; shared_by: string | null };

describe('PostgreSQL schema upgrade to the listing that asks once', () => {
  it('keeps every row, replaces the listing function, and each listing gives the same rows and status', async () => {
    const url = await databaseBefore(LISTING_ASKS_ONCE_MIGRATION);
    const [a, b] = [await person(url, 'ao'), await person(url, 'bo')];
    const owners = [a.role, b.role];
    await fillTwoMembers(url, 'ao-', [a.role, b.role], SESSIONS);
    // The first member owns the even sessions, the other the odd ones. ao-5 (the other's, in p0)
    // shared with the first; ao-4 held by a holder whose connection is gone; ao-8 left open.
    await runSql(url, "UPDATE chatkeep.sessions SET status = 'open' WHERE id = 'ao-8'");
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('ao-5', $1, $2)", [a.role, b.role]);
    await runSql(url, "INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch) VALUES ('ao-4', 1, 'h', now(), 2147483647, 1)");
    // ao-12 and ao-5 held by a connection of their own, as a writer holds one (ao-5 with its holder row).
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1, key) FROM chatkeep.lock_keys WHERE session_id IN ('ao-12', 'ao-5')", [LOCK_SPACE]);
      await holder.query("INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch) VALUES ('ao-5', 2, 'h', now(), pg_backend_pid(), 1)");
      // The admin's listing by the function before, at the schema before: the members can read only
      // once the team is set up, and the team's setup brings the schema up to this build's.
      const version = await schemaVersion(url);
      const everyoneBefore = await runSql<Listed>(url, `SELECT id, live, shared_by FROM (${LISTED_SQL}) l`, [['p0', 'p1'], 10]);
      const digestBefore = await runSql(url, DIGEST_SQL);
      await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
      expect(await schemaVersion(url)).toBeGreaterThan(version);
      expect(await runSql(url, DIGEST_SQL)).toEqual(digestBefore);
      const listings = async (): Promise<Listed[][]> => {
        const asked: Listed[][] = [];
        for (const [who, newest] of [[a.url, 10], [a.url, null], [b.url, 10], [url, 10]] as const) {
          asked.push(await runSql<Listed>(who, `SELECT id, live, shared_by FROM (${LISTED_SQL}) l`, [['p0', 'p1'], newest]));
        }
        return asked;
      };
      // The members' listings by this build's function: the rows and statuses each must see.
      const before = await listings();
      const digest = await runSql(url, DIGEST_SQL);
      const statuses = (rows: Listed[]): string[] => rows.filter((r) => r.live !== 'closed').map((r) => `${r.id} ${r.live}`);
      const [newest, all, other, everyone] = before;
      expect(everyone).toEqual(everyoneBefore);
      expect(newest!.slice(0, 3)).toEqual([
        { id: 'ao-2', live: 'closed', shared_by: null },
        { id: 'ao-4', live: 'interrupted', shared_by: null },
        { id: 'ao-5', live: 'open', shared_by: b.role },
      ]);
      expect(all).toHaveLength(SESSIONS / 2 + 1);
      expect(statuses(all!)).toEqual(['ao-4 interrupted', 'ao-5 open', 'ao-8 interrupted', 'ao-12 open']);
      expect(statuses(other!)).toEqual(['ao-5 open']);
      expect(statuses(everyone!)).toEqual(['ao-4 interrupted', 'ao-5 open', 'ao-8 interrupted', 'ao-12 open']);
      // The newest 10 of each project: p0 and p1 alternate in pairs.
      expect(everyone!.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `ao-${i + 1}`));

      const cwd = tmpHome('chatkeep-upgrade-');
      await (await openPostgresStore(url, { interpreter, cwd })).close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, DIGEST_SQL)).toEqual(digest);
      const [fn] = await serverFunctions(url, 'listing');
      expect(fn!.prosrc).toContain(LISTING_SQL);
      expect(fn!.prosrc).toMatch(/sees_all boolean := chatkeep\.is_chatkeep\(\) OR chatkeep\.is_admin\(\)/);
      expect(await listings()).toEqual(before);
    } finally {
      await holder.end();
    }
  });
});
