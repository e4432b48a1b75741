/**
 * A team's database at the schema before search's results ran the best message's query only where a
 * best message is to be found (SEARCH_RESULTS_FOUND_ONLY_MIGRATION, search-results.ts), with 10,000
 * sessions of two members and their search rows, upgraded by this build: every row as it was,
 * `chatkeep.search_results` this build's, and its rows the same as before, with and without best
 * messages to find and with messages named (stale, pending and trashed sessions among those asked).
 * (A build that knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import {
  SEARCH_RESULTS_BEST_SQL, SEARCH_RESULTS_FOUND_ONLY_MIGRATION, SEARCH_RESULTS_NONE_FOUND_SQL, SEARCHED_RESULTS_SQL,
} from '../../src/store/postgres/search-results.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { DIGESTS, teamSearchRows } from '../helpers/search-upgrade.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/** The results of `ids` for `heron`, each session's message `n` or a best message to find, every row as text, in ID order. */
async function results(url: string, ids: string[], ns: (number | null)[], find: boolean[]): Promise<string[]> {
  const rows = await runSql<Record<string, unknown>>(url, SEARCHED_RESULTS_SQL, [['p'], ids, ns, 'heron', find]);
  return rows.map((r) => JSON.stringify(r)).sort();
}

describe('PostgreSQL schema upgrade to the results that plan a best message only where one is to be found', () => {
  it('keeps every row, and gives the same results with and without best messages to find', async () => {
    const url = await databaseBefore(SEARCH_RESULTS_FOUND_ONLY_MIGRATION);
    await teamSearchRows(url, 'fo', SESSIONS);
    const before = await runSql(url, DIGESTS);
    // The word's sessions (fo-1 and every 97th), the odd ones (stale, renamed, unindexed, pending, trashed) and a few without it.
    const ids = ['fo-1', 'fo-2', 'fo-5', 'fo-8', 'fo-9', 'fo-11', 'fo-97', 'fo-194', 'fo-291', 'fo-300', 'fo-9991'];
    const none = ids.map(() => null);
    const cases: [(number | null)[], boolean[]][] = [
      [none, ids.map(() => false)],
      [none, ids.map(() => true)],
      [ids.map((_, i) => i % 2), ids.map((_, i) => i % 3 === 0)],
    ];
    const found: string[][] = [];
    for (const [ns, find] of cases) found.push(await results(url, ids, ns, find));
    // What they hold: the two trashed sessions left out, a best message found only where asked for.
    expect(found[0]).toHaveLength(ids.length - 2);
    expect(found[0]!.every((r) => r.includes('"best":null'))).toBe(true);
    expect(found[1]!.filter((r) => r.includes('"best":1,"best_hits":1'))).toHaveLength(3);

    await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGESTS)).toEqual(before);
    const fn = await serverKeptPlan(url, 'search_results');
    expect(fn.prosrc).toContain(SEARCH_RESULTS_BEST_SQL);
    expect(fn.prosrc).toContain(SEARCH_RESULTS_NONE_FOUND_SQL);
    for (const [i, [ns, find]] of cases.entries()) expect(await results(url, ids, ns, find)).toEqual(found[i]);
    expect(await runSql(url, DIGESTS)).toEqual(before);
  });
});
