/**
 * A member's listing on a team's server is planned once per connection, not on every call
 * (listing-sql.ts): the store asks `chatkeep.listing`, whose query the server plans generically
 * (for any project keys) and keeps. Shown by the plans the server runs (auto_explain, sent back
 * to the asking connection): for every call, whatever keys, the plan names the keys as the
 * parameter `$1`, never their value, as a plan made for one call's values would; and it still
 * reads the member's own rows over the index by owner. The answers stay what row security allows.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { LISTED_SQL, LISTING_SQL } from '../../src/store/postgres/listing-sql.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { adoptedSession } from '../helpers/adopted.js';
import { runSql } from '../helpers/postgres.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { twoMembers } from '../helpers/team-stores.js';

describe("a member's listing on a team's server", () => {
  it('is what row security lets through, by one generic plan per connection, over the index by owner', async () => {
    const { url, ann, bob, annStore, bobStore, close } = await twoMembers('lp');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const base = Date.UTC(2026, 10, 20);
      const mine = [await adoptedSession(annStore, 'lp-ann-1', 'hello from lp-ann-1', { at: base + 1000 }), await adoptedSession(annStore, 'lp-ann-2', 'hello from lp-ann-2', { at: base + 2000 })];
      const shared = await adoptedSession(bobStore, 'lp-bob-shared', 'hello from lp-bob-shared', { at: base + 3000 });
      await adoptedSession(bobStore, 'lp-bob-own', 'hello from lp-bob-own', { at: base + 4000 });
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', [shared, ann.role]);
      const key = keyOf(annStore.project);
      const listed = await annStore.list([{ ...annStore.project, key } as ProjectInfo]);
      expect(listed.map((r) => [r.id, r.owner ?? 'mine'])).toEqual([[shared, bob.role], [mine[1], 'mine'], [mine[0], 'mine']]);

      // The server's function runs this build's listing query, with the setting that keeps its plan generic.
      const fn = await serverKeptPlan(url, 'listing');
      expect(fn.prosrc).toContain(LISTING_SQL);
      expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);

      // As ann, each plan the server runs sent back to this connection.
      const notices: string[] = [];
      admin.on('notice', (n) => notices.push(n.message ?? ''));
      await admin.query(`LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
        SET auto_explain.log_level = 'notice'; SET client_min_messages = 'notice'; SET ROLE ${ann.role}`);
      const calls = [[key], [key, 'no-such-project'], [key], [key], [key, 'no-such-project'], [key]];
      for (const [i, keys] of calls.entries()) {
        // Every row, or the newest two: one plan for both, the limit a parameter.
        const newest = i % 2 === 0 ? null : 2;
        const { rows } = await admin.query<{ id: string }>(LISTED_SQL, [keys, newest]);
        expect(rows.map((r) => r.id)).toEqual(listed.map((r) => r.id).slice(0, newest ?? undefined));
      }
      await admin.query('RESET ROLE');
      const plans = notices.filter((n) => n.includes('sessions_by_project_owner'));
      expect(plans).toHaveLength(calls.length);
      for (const plan of plans) {
        // Each key of `$1` in turn (the newest of each project are read per project, listing-sql.ts).
        expect(plan).toMatch(/sessions_by_project_owner[^\n]*\n\s*Index Cond: \(\(project_key = \(unnest\(\$1\)\)\) AND \(owner = /);
        expect(plan).not.toContain(key);
      }
    } finally {
      await admin.end();
      await close();
    }
  });
});
