/**
 * A team's database at the schema before a session's row said whether its search rows cover it
 * (SEARCH_MATCH_FLAGGED_MIGRATION), with 10,000 sessions of two members and their search rows,
 * upgraded by this build: every row as it was, each session's coverage copied from its search facts
 * where they are of its snapshot and title, `chatkeep.search_match` this build's, and each member's
 * and the admin's match rows the same as before (stale, title-stale, unindexed, pending and trashed
 * sessions among them, a shared one for a member). The match now reads the search facts of the
 * sessions they do not cover only, where it read every one's. (A build that knows only the schema
 * before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { matchSql, SEARCH_MATCH_FLAGGED_MIGRATION, type MatchRow } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion } from '../helpers/schema-at.js';
import { adminSearchRead, DIGESTS, matches, membersBesideAdmin, teamSearchRows } from '../helpers/search-upgrade.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/** The search facts the admin's match reads for the first search, by auto_explain's account of the function's statements. */
async function factsRead(url: string): Promise<number> {
  return (await adminSearchRead(url, new Set(['search_sessions']))).read;
}

describe('PostgreSQL schema upgrade to search coverage on the session row', () => {
  it("keeps every row and every role's search rows, and reads the facts of the sessions not covered only", async () => {
    const url = await databaseBefore(SEARCH_MATCH_FLAGGED_MIGRATION);
    const { a, b, owners } = await teamSearchRows(url, 'co', SESSIONS);
    const before = await runSql(url, DIGESTS);
    const found = await matches(url);
    // What the searches hold: the word in co-1 and every 97th session (but the trashed), and every exception.
    const odd = (rows: MatchRow[]): string[] => rows.filter((r) => r.stale || r.pending || r.title_stale).map((r) => r.id).sort();
    expect(odd(found[0]!)).toEqual(['co-10', 'co-11', 'co-12', 'co-5', 'co-6', 'co-7', 'co-8', 'co-9']);
    expect(found[0]!.filter((r) => r.hits !== null)).toHaveLength(Math.floor(SESSIONS / 97) - 2 + 1);
    expect(found[0]!.map((r) => r.id)).not.toContain('co-97');
    // Schema 31's match joins every session of the project with its facts.
    expect(await factsRead(url)).toBeGreaterThanOrEqual(SESSIONS - 10);

    await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, DIGESTS)).toEqual(before);
    // Covered: every session whose facts are of its snapshot and title, with their last event and messages; no other.
    const coverage = await runSql<{ id: string }>(
      url,
      `SELECT s.id FROM chatkeep.sessions s LEFT JOIN chatkeep.search_sessions d ON d.session_id = s.id
       WHERE s.search_version IS NULL OR s.search_version <> s.snapshot_version OR s.search_seq IS DISTINCT FROM d.seq
         OR s.search_messages IS DISTINCT FROM d.messages ORDER BY s.id`,
    );
    expect(coverage.map((r) => r.id)).toEqual(['co-10', 'co-5', 'co-6', 'co-7', 'co-8', 'co-9']);
    const fn = await serverKeptPlan(url, 'search_match');
    for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
    expect(await matches(url)).toEqual(found);
    // The facts of the six sessions not covered (four have any: stale and renamed), where it read 10,000
    // (auto_explain's rows a loop are rounded: 4 rows over 10,000 loops read as 4.02).
    expect(await factsRead(url)).toBeLessThanOrEqual(6);

    // Each member: the admin's rows of the sessions row security lets them read (their own, and for a the one shared with her), the same.
    const members = await membersBesideAdmin(url, owners, { a, b }, 'co-1', found);
    expect(members.a[0]).toEqual(members.a[1]);
    expect(members.b[0]).toEqual(members.b[1]);
    expect(odd((await matches(a.url))[0]!)).toEqual(['co-10', 'co-12', 'co-6', 'co-8']);
    expect(await runSql(url, DIGESTS)).toEqual(before);
  });
});
