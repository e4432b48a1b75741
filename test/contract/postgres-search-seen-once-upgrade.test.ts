/**
 * A team's database at the schema before search's match asked once per call, in its body, whether
 * its role sees every session (SEARCH_MATCH_SEEN_ONCE_MIGRATION), with 10,000 sessions of two
 * members and their search rows, upgraded by this build: every row as it was, `chatkeep.search_match`
 * this build's, and each member's and the admin's match rows the same as before (stale, title-stale,
 * pending and trashed sessions among them, a shared one for a member). The match's query now reads
 * its body's answer, where it asked the roles' catalog again. (A build that knows only the schema
 * before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { matchSql, SEARCH_MATCH_SEEN_ONCE_MIGRATION, type MatchRow } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { adminSearchRead, DIGESTS, matches, membersBesideAdmin, teamSearchRows } from '../helpers/search-upgrade.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/** How many times the admin's match scans `pg_namespace` (each asking of `chatkeep.is_chatkeep()`), by auto_explain's account. */
async function catalogRead(url: string): Promise<number> {
  const { plans } = await adminSearchRead(url, new Set(['pg_namespace']));
  return plans.reduce((n, p) => n + [...p.matchAll(/"Relation Name":"pg_namespace"[^{}]*?"Actual Loops":(\d+)/g)].reduce((k, m) => k + Number(m[1]), 0), 0);
}

describe('PostgreSQL schema upgrade to the match whose body asks once whether its role sees every session', () => {
  it("keeps every row and every role's search rows, and asks the roles' catalog once a call", async () => {
    const url = await databaseBefore(SEARCH_MATCH_SEEN_ONCE_MIGRATION);
    const { a, b, owners } = await teamSearchRows(url, 'so', SESSIONS);
    const before = await runSql(url, DIGESTS);
    const found = await matches(url);
    const catalogBefore = await catalogRead(url);
    // What the searches hold: the word in so-1 and every 97th session (but the trashed), and every exception.
    const odd = (rows: MatchRow[]): string[] => rows.filter((r) => r.stale || r.pending || r.title_stale).map((r) => r.id).sort();
    expect(odd(found[0]!)).toEqual(['so-10', 'so-11', 'so-12', 'so-5', 'so-6', 'so-7', 'so-8', 'so-9']);
    expect(found[0]!.filter((r) => r.hits !== null)).toHaveLength(Math.floor(SESSIONS / 97) - 2 + 1);

    await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGESTS)).toEqual(before);
    const fn = await serverKeptPlan(url, 'search_match');
    for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
    expect(await matches(url)).toEqual(found);
    // Asked in the body only: the query's `seer` no longer scans the catalog.
    expect(catalogBefore).toBe(2);
    expect(await catalogRead(url)).toBe(1);

    // Each member: the admin's rows of the sessions row security lets them read (their own, and for a the one shared with her), the same.
    const members = await membersBesideAdmin(url, owners, { a, b }, 'so-1', found);
    expect(members.a[0]).toEqual(members.a[1]);
    expect(members.b[0]).toEqual(members.b[1]);
    expect(odd((await matches(a.url))[0]!)).toEqual(['so-10', 'so-12', 'so-6', 'so-8']);
    expect(await runSql(url, DIGESTS)).toEqual(before);
  });
});
