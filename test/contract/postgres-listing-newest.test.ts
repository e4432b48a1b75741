/**
 * A member's newest-N listing on a team's server reads N rows, not the project's every row
 * (listing-sql.ts, `chatkeep.listing(keys, newest)`): the store returns exactly the newest N the
 * member may see (their own and those shared with them, merged by time), the server's plan (the
 * generic one the function keeps) reads about N rows of `sessions`, and the manager's second, full
 * read still happens when the newest rows hold too few it shows (sessions without a message).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { listSql } from '../../src/store/postgres/listing-sql.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { explainRowsRead } from '../helpers/plan-rows.js';
import { runSql } from '../helpers/postgres.js';
import { twoMembers } from '../helpers/team-stores.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Each member's sessions in the project; ann's newest EMPTY hold no message. */
const EACH = 300;
const EMPTY = 60;
const NEWEST = 50;

/** `count` sessions of the role at `url`, `<prefix>1`… one minute apart (the higher the newer); those above `EACH - empty` without a message. */
async function sessionsOf(url: string, prefix: string, key: string, path: string, empty: number): Promise<void> {
  await runSql(url, 'INSERT INTO chatkeep.ids (id) SELECT $1 || n FROM generate_series(1, $2::int) n', [prefix, EACH]);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status, message_count, archived_messages)
     SELECT $1 || n, $2, $3, 'Session ' || n, t, t, 'closed', CASE WHEN n > $4::int - $5::int THEN 0 ELSE 1 END, 0
     FROM generate_series(1, $4::int) n, LATERAL (SELECT timestamptz '2026-11-20 10:00Z' + n * interval '1 minute' AS t) x`,
    [prefix, key, path, EACH, empty],
  );
}

const ids = (prefix: string, from: number, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${from - i}`);

describe("a member's newest-N listing on a team's server", () => {
  it('returns exactly the newest N the member sees, reads about N rows, and the manager reads all when too few are shown', async () => {
    const { url, ann, bob, cwd, annStore, bobStore, close } = await twoMembers('ln');
    const member = new pg.Client({ connectionString: ann.url });
    await member.connect();
    try {
      // Each member's project row, by a first session stored as chatkeep stores one.
      for (const store of [annStore, bobStore]) {
        const s = blankSnapshot(`ln-first-${store === annStore ? 'a' : 'b'}`, store.project.path, new Date(Date.UTC(2026, 10, 19)), 'test');
        expect(await store.adopt(s)).toBe(true);
      }
      const key = keyOf(annStore.project);
      await sessionsOf(ann.url, 'ln-a-', key, annStore.project.path, EMPTY);
      await sessionsOf(bob.url, 'ln-b-', key, bobStore.project.path, 0);
      // Bob's newest session of all, shared with ann: her listing merges it in first.
      await runSql(bob.url, "UPDATE chatkeep.sessions SET updated_at = updated_at + interval '1 day' WHERE id = 'ln-b-7'");
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', ['ln-b-7', ann.role]);

      const newest = await annStore.list([annStore.project], { newest: NEWEST });
      expect(newest.map((r) => r.id)).toEqual(['ln-b-7', ...ids('ln-a-', EACH, NEWEST - 1)]);
      expect(newest[0]!.owner).toBe(bob.role);
      // Without `newest`, every row she sees: hers, the first one, the shared one.
      const all = await annStore.list([annStore.project]);
      expect(all).toHaveLength(EACH + 2);
      expect(all.slice(0, NEWEST)).toEqual(newest);

      // The plan the function keeps (generic, the limit a parameter), run as ann: it reads the
      // newest rows and stops, where a listing of every row read all 300 of hers.
      await runSql(url, 'ANALYZE chatkeep.sessions, chatkeep.shares');
      // Its `sees_all` is a PL/pgSQL variable, which the kept plan reads as a parameter: `$3` here.
      await member.query(`SET plan_cache_mode = force_generic_plan; PREPARE listing (text[], integer, boolean) AS ${listSql({ newest: '$2', seesAll: '$3' })}`);
      const execute = `EXECUTE listing(ARRAY[${member.escapeLiteral(key)}], ${NEWEST}, false)`;
      const read = await explainRowsRead(member, execute, [], new Set(['sessions']));
      expect(read).toBeGreaterThanOrEqual(NEWEST);
      expect(read).toBeLessThanOrEqual(NEWEST + 10);
      const events = await explainRowsRead(member, execute, [], new Set(['events', 'holders', 'lock_keys']));
      expect(events).toBeLessThanOrEqual(NEWEST);

      // The manager, as ann: her newest 60 hold no message, so the newest 50 rows show one (the
      // shared session); the second read, of every row, gives the 50 newest that hold a message.
      const sessions = await openSessions({ home: tmpHome(), cwd, store: ann.url });
      try {
        const listed = await sessions.list({ limit: NEWEST });
        expect(listed.map((s) => s.id)).toEqual(['ln-b-7', ...ids('ln-a-', EACH - EMPTY, NEWEST - 1)]);
        expect((await sessions.list({ limit: 1 })).map((s) => s.id)).toEqual(['ln-b-7']);
        expect((await sessions.list({ limit: NEWEST, empty: true })).map((s) => s.id)).toEqual(newest.map((r) => r.id));
      } finally {
        await sessions.close();
      }
    } finally {
      await member.end();
      await close();
    }
  });
});
