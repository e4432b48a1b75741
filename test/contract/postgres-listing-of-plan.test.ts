/**
 * Search's listing rows on a team's server are read by a plan kept per connection, not planned on
 * every search (listing-sql.ts): the store asks `chatkeep.listing_of`, whose query is this build's
 * LISTING_OF_SQL, planned generically (for any keys and any IDs) and kept. Shown by the plans the
 * server runs (auto_explain, as the member): for one ID, a page's 20 and a batch's 200, on one
 * connection, each plan reads the sessions by their primary key, the IDs the parameter `$2`, never
 * their values, and reads about as many session rows as it was given IDs, not the project's
 * thousands. The answers stay what row security allows: the member's own and shared sessions of
 * the IDs asked, never another member's unshared one.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { LISTED_OF_SQL, LISTING_OF_SQL } from '../../src/store/postgres/listing-sql.js';
import { calledRowsRead } from '../helpers/plan-rows.js';
import { runSql } from '../helpers/postgres.js';
import { fillTwoMembers } from '../helpers/schema-at.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { twoMembers } from '../helpers/team-stores.js';

const SESSIONS = 4_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** How each scan of `sessions` in a plan finds its rows: its index condition (`seq scan` for none). */
function sessionScans(node: PlanNode): string[] {
  const own = node['Index Name']?.startsWith('sessions_') ? [node['Index Cond'] ?? 'no condition']
    : node['Relation Name'] === 'sessions' && !node['Node Type'].startsWith('Bitmap') && !node['Index Name'] ? ['seq scan'] : [];
  return [...own, ...(node.Plans ?? []).flatMap(sessionScans)];
}

describe("search's listing rows on a team's server", () => {
  it('are what row security lets through, by one generic plan per connection over the primary key, whatever the number of IDs', async () => {
    const { url, ann, bob, close } = await twoMembers('lo');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Ann owns the even sessions, Bob the odd ones, in projects p0 and p1; lo-7 shared with Ann.
      await fillTwoMembers(url, 'lo-', [ann.role, bob.role], SESSIONS);
      await runSql(bob.url, "INSERT INTO chatkeep.shares (session_id, grantee) VALUES ('lo-7', $1)", [ann.role]);
      await runSql(url, 'ANALYZE chatkeep.sessions; ANALYZE chatkeep.shares');

      // The server's function runs this build's query, with the setting that keeps its plan generic.
      const fn = await serverKeptPlan(url, 'listing_of');
      expect(fn.prosrc).toContain(LISTING_OF_SQL);
      expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);

      const ids = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => `lo-${from + i}`);
      // Ann's own even sessions, lo-7 (shared), and no other of Bob's.
      const seen = (asked: string[]): string[] => asked.filter((id) => Number(id.slice(3)) % 2 === 0 || id === 'lo-7').sort();
      for (const asked of [['lo-7'], ids(1, 20), ids(1001, 200), ['lo-8', 'lo-9'], ids(2, 20)]) {
        const called = await calledRowsRead<{ id: string; shared_by: string | null }>(admin, ann.role, LISTED_OF_SQL, [['p0', 'p1'], asked], new Set(['sessions']));
        expect(called.rows.map((r) => r.id).sort()).toEqual(seen(asked));
        expect(called.rows.filter((r) => r.shared_by !== null)).toEqual(asked.includes('lo-7') ? [{ id: 'lo-7', shared_by: bob.role }].map((r) => expect.objectContaining(r)) : []);
        // The listing query's plan (the others are the policies' functions').
        const plans = called.plans.filter((p) => p.includes('held_ids'));
        expect(plans).toHaveLength(1);
        // The sessions by the primary key, each ID in turn; no scan of them by anything else.
        const scans = sessionScans((JSON.parse(plans[0]!) as { Plan: PlanNode }).Plan);
        expect(scans.filter((c) => c.includes('(id = (unnest($2)))'))).toHaveLength(1);
        expect(scans.filter((c) => !/^\(\(?id = /.test(c))).toEqual([]);
        expect(plans[0]).not.toContain('"lo-');
        expect(plans[0]).not.toContain("'lo-");
        // Each ID read once by the member's own rows and at most once by the shared ones: never the project's every row.
        expect(called.read).toBeLessThanOrEqual(2 * asked.length);
      }
    } finally {
      await admin.end();
      await close();
    }
  });
});
