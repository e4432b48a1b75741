/**
 * A team's database at the schema before search's match asked once per call whether its role sees
 * every session (SEARCH_MATCH_ASKS_ONCE_MIGRATION), with 10,000 sessions of two members and their
 * search rows, upgraded by this build: every row as it was, `chatkeep.search_match` this build's,
 * and each member's and the admin's match rows the same as before (stale, title-stale, pending and
 * trashed sessions among them, a shared one for a member). The match now reads the roles' catalog
 * once per call, where it read it in each branch of `vis`. (A build that knows only the schema
 * before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { matchSql, SEARCH_MATCH_ASKS_ONCE_MIGRATION, type MatchRow } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { adminSearchRead, DIGESTS, matches, membersBesideAdmin, teamSearchRows } from '../helpers/search-upgrade.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/**
 * How many times the admin's match asks whether its role sees every session (`chatkeep.is_chatkeep()`,
 * each asking a scan of `pg_namespace`), by auto_explain's account of the function's statements as
 * they ran (no policy asks it for the admin).
 */
async function catalogRead(url: string): Promise<number> {
  const { plans } = await adminSearchRead(url, new Set(['pg_namespace']));
  // Each scan of it, inlined into the match's plan or in the function's own statement, as often as it ran.
  return plans.reduce((n, p) => n + [...p.matchAll(/"Relation Name":"pg_namespace"[^{}]*?"Actual Loops":(\d+)/g)].reduce((k, m) => k + Number(m[1]), 0), 0);
}

describe('PostgreSQL schema upgrade to the match that asks once whether its role sees every session', () => {
  it("keeps every row and every role's search rows, and asks once a call whether its role sees every session", async () => {
    const url = await databaseBefore(SEARCH_MATCH_ASKS_ONCE_MIGRATION);
    const { a, b, owners } = await teamSearchRows(url, 'ao', SESSIONS);
    const before = await runSql(url, DIGESTS);
    const found = await matches(url);
    const catalogBefore = await catalogRead(url);
    // What the searches hold: the word in ao-1 and every 97th session (but the trashed), and every exception.
    const odd = (rows: MatchRow[]): string[] => rows.filter((r) => r.stale || r.pending || r.title_stale).map((r) => r.id).sort();
    expect(odd(found[0]!)).toEqual(['ao-10', 'ao-11', 'ao-12', 'ao-5', 'ao-6', 'ao-7', 'ao-8', 'ao-9']);
    expect(found[0]!.filter((r) => r.hits !== null)).toHaveLength(Math.floor(SESSIONS / 97) - 2 + 1);
    expect(found[0]!.map((r) => r.id)).not.toContain('ao-97');

    await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGESTS)).toEqual(before);
    const fn = await serverKeptPlan(url, 'search_match');
    for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
    expect(await matches(url)).toEqual(found);
    // The match asks once (and its body once more), where it asked in `asked` and in each member branch too.
    expect(await catalogRead(url)).toBeLessThanOrEqual(catalogBefore / 2);

    // Each member: the admin's rows of the sessions row security lets them read (their own, and for a the one shared with her), the same.
    const members = await membersBesideAdmin(url, owners, { a, b }, 'ao-1', found);
    expect(members.a[0]).toEqual(members.a[1]);
    expect(members.b[0]).toEqual(members.b[1]);
    expect(odd((await matches(a.url))[0]!)).toEqual(['ao-10', 'ao-12', 'ao-6', 'ao-8']);
    expect(await runSql(url, DIGESTS)).toEqual(before);
  });
});
