/**
 * A member's search on a team's server runs its match query by a plan kept per connection, not
 * planned on every call (search-match.ts): the store asks `chatkeep.search_match`, whose queries
 * are this build's matchSql and which the server plans generically (for any keys and any word).
 * Shown by the plans the server runs (auto_explain, as the member): for every call, whatever the
 * word, the plan names the word as the parameter `$2`, never its value, as a plan made for one
 * call's values would. The answers stay what row security allows, and the trigram policy's
 * pattern, set inside the function, is gone when it returns. A search holds one connection of the
 * store's pool, so that the search after a bulk write runs where the plan is kept already.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { MATCHED_SQL, matchSql } from '../../src/store/postgres/search-match.js';
import { SEARCH_LIKE_SETTING } from '../../src/store/postgres/search-narrowing.js';
import { calledRowsRead } from '../helpers/plan-rows.js';
import { adoptedSession } from '../helpers/adopted.js';
import { runSql } from '../helpers/postgres.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { twoMembers } from '../helpers/team-stores.js';

describe("a member's search on a team's server", () => {
  it('is what row security lets through, by one generic plan per connection of the match query this build sends', async () => {
    const { url, ann, bob, annStore, bobStore, close } = await twoMembers('sp');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const mine = await adoptedSession(annStore, 'sp-ann-1', 'a heron by the ledger');
      await adoptedSession(annStore, 'sp-ann-2', 'the ledger again');
      const shared = await adoptedSession(bobStore, 'sp-bob-shared', 'a heron in the ledger of bob');
      await adoptedSession(bobStore, 'sp-bob-own', 'a heron and a ledger nobody shared');
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', [shared, ann.role]);
      const key = keyOf(annStore.project);
      const project = { ...annStore.project, key } as ProjectInfo;
      expect((await annStore.searchSessions('heron', [project], {})).results.map((r) => r.session.id).sort()).toEqual([mine, shared]);

      // The server's function runs this build's match query, each narrowing's, with the settings that keep its plan generic.
      const fn = await serverKeptPlan(url, 'search_match');
      for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));

      // As ann, on one connection: a rare word, a common one, one too short for the index, and the rare one again.
      const calls: [string, string[]][] = [['heron', [mine, shared]], ['ledger', [mine, 'sp-ann-2', shared]], ['by', [mine]], ['heron', [mine, shared]]];
      for (const [word, ids] of calls) {
        const short = word.length < 3;
        // In a transaction of the caller's, which the function's pattern must not outlive.
        await admin.query('BEGIN');
        const called = await calledRowsRead<{ id: string }>(admin, ann.role, MATCHED_SQL, [[key], word, short ? null : `%${word}%`, short ? null : 'trgm'], new Set());
        expect(called.rows.map((r) => r.id).sort()).toEqual(ids.sort());
        // The match query's plan (the others are the policies' functions').
        const plans = called.plans.filter((p) => p.includes(' vis AS MATERIALIZED ('));
        expect(plans).toHaveLength(1);
        expect(plans[0]).toContain('$2');
        expect(plans[0]).not.toContain(`'${word}'`);
        expect(plans[0]).not.toContain(key);
        // The pattern narrowed the function's own query only.
        const { rows } = await admin.query<{ v: string | null }>(`SELECT current_setting('${SEARCH_LIKE_SETTING}', true) AS v`);
        expect(rows[0]!.v ?? '').toBe('');
        await admin.query('COMMIT');
      }
    } finally {
      await admin.end();
      await close();
    }
  });

  it('holds one connection of the pool, where the plan is kept, also for the search after a bulk write', async () => {
    const { url, ann, annStore, close } = await twoMembers('sc');
    try {
      const project = { ...annStore.project, key: keyOf(annStore.project) } as ProjectInfo;
      const bulk = (from: number): Promise<string[]> =>
        Promise.all(Array.from({ length: 30 }, (_, i) => adoptedSession(annStore, `sc-${from + i}`, i % 3 ? 'the ledger' : 'a heron by the ledger')));
      // Each search finds sessions, and so reads their listing rows and their snippets' messages too.
      await bulk(0);
      const first = await annStore.searchSessions('heron', [project], {});
      await bulk(30);
      const second = await annStore.searchSessions('heron', [project], {});
      expect([first.total, second.total]).toEqual([10, 20]);
      expect(second.results.every((r) => r.snippet?.text.includes('heron'))).toBe(true);
      // The store's connections on the server (it holds no session's lock): a second, opened for the
      // snippets beside the listing rows, was where the next search ran, its plan not made there yet.
      const held = await runSql<{ n: number }>(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1 AND backend_type = 'client backend'", [ann.role]);
      expect(held[0]!.n).toBe(1);
    } finally {
      await close();
    }
  });
});
