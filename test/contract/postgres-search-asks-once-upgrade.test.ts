/**
 * A team's database at the schema before search's match asked once per call whether its role sees
 * every session, with 10,000 sessions of two members and their search rows, upgraded by this build:
 * every row as it was, `chatkeep.search_match` this build's, and each member's and the admin's match
 * rows the same as before (stale, title-stale, pending and trashed sessions among them, a shared one
 * for a member). From before SEARCH_MATCH_ASKS_ONCE_MIGRATION, the match reads the roles' catalog
 * once per call where it read it in each branch of `vis`; from before SEARCH_MATCH_SEEN_ONCE_MIGRATION,
 * once where its body and its query each read it. (A build that knows only the schema before refuses
 * the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { matchSql, SEARCH_MATCH_ASKS_ONCE_MIGRATION, SEARCH_MATCH_SEEN_ONCE_MIGRATION } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { adminCatalogScans, DIGESTS, matches, membersBesideAdmin, teamSearchRows, uncoveredIds } from '../helpers/search-upgrade.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/**
 * The database before `migration` (its sessions named `prefix-n`), upgraded, checked as the header
 * says; the admin's scans of the roles' catalog before and after, for the caller to judge.
 */
async function upgradedFrom(migration: string, prefix: string): Promise<{ before: number; after: number }> {
  const url = await databaseBefore(migration);
  const { a, b, owners } = await teamSearchRows(url, prefix, SESSIONS);
  const digests = await runSql(url, DIGESTS);
  const found = await matches(url);
  const before = await adminCatalogScans(url);
  const id = (n: number): string => `${prefix}-${n}`;
  // What the searches hold: the word in PREFIX-1 and every 97th session (but the trashed), and every exception.
  expect(uncoveredIds(found[0]!)).toEqual([10, 11, 12, 5, 6, 7, 8, 9].map(id));
  expect(found[0]!.filter((r) => r.hits !== null)).toHaveLength(Math.floor(SESSIONS / 97) - 2 + 1);
  expect(found[0]!.map((r) => r.id)).not.toContain(id(97));

  await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
  expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
  expect(await runSql(url, DIGESTS)).toEqual(digests);
  const fn = await serverKeptPlan(url, 'search_match');
  for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
  expect(await matches(url)).toEqual(found);
  const after = await adminCatalogScans(url);

  // Each member: the admin's rows of the sessions row security lets them read (their own, and for a the one shared with her), the same.
  const members = await membersBesideAdmin(url, owners, { a, b }, id(1), found);
  expect(members.a[0]).toEqual(members.a[1]);
  expect(members.b[0]).toEqual(members.b[1]);
  expect(uncoveredIds((await matches(a.url))[0]!)).toEqual([10, 12, 6, 8].map(id));
  expect(await runSql(url, DIGESTS)).toEqual(digests);
  return { before, after };
}

describe('PostgreSQL schema upgrade to the match that asks once whether its role sees every session', () => {
  it("keeps every row and every role's search rows, and asks once a call whether its role sees every session", async () => {
    const scans = await upgradedFrom(SEARCH_MATCH_ASKS_ONCE_MIGRATION, 'ao');
    // The match asks once (and its body once more), where it asked in `asked` and in each member branch too.
    expect(scans.after).toBeLessThanOrEqual(scans.before / 2);
  });

  it("keeps every row and every role's search rows, and asks the roles' catalog in its body only", async () => {
    const scans = await upgradedFrom(SEARCH_MATCH_SEEN_ONCE_MIGRATION, 'so');
    // Asked in the body, whose answer the query's `seer` reads, where the query asked again.
    expect(scans).toEqual({ before: 2, after: 1 });
  });
});
