/**
 * A team's database of 10,000 sessions at the schema before search's best message was left to the
 * results where the match would count it on its own (SEARCH_BEST_SHOWN_MIGRATION, search-hits.ts),
 * upgraded by the team's setup as an admin runs it: every row as it was; the match's rows the same,
 * with the best message as before where it comes with the count (the trigram index's hits, a
 * session whose blocks do not cover its messages) and none for a session counted from its blocks;
 * and each session's best message, as the results find it, the one the match gave before, for the
 * admin and a member (her own sessions and one shared with her; none of the other's). A member's
 * search through her store shows each result's snippet from that message. (A build that knows only
 * the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { blocksOf } from '../../src/store/postgres/search-blocks.js';
import { matchSql } from '../../src/store/postgres/search-match.js';
import { SEARCH_BEST_SHOWN_MIGRATION, SEARCH_RESULTS_BEST_SQL } from '../../src/store/postgres/search-results.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';
import { bestsMatched, bestsShown, matchedRows, writeTeamMessages } from '../helpers/search-blocks.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { twoInOneProject } from '../helpers/team.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 10_000;

/**
 * Each word and narrowing asked, and which sessions' best message the match gives: a common word
 * through the trigram index (the admin's sample finds the index cheaper than her 10,000 sessions)
 * and a rare one, every session's; a common word session by session (no narrowing), only those
 * counted from their message rows (UNCOVERED).
 */
const ASKED = [['journal', 'trgm', 'all'], ['journal', null, 'uncovered'], ['heron', 'trgm', 'all']] as const;

/** The sessions whose blocks are lost or cut short below: counted from their message rows, their best message with the count. */
const UNCOVERED = ['sw-118', 'sw-38', 'sw-78'];

/** Every row of the blocks, beside TEAM_DIGEST_SQL's tables. */
const BLOCKS_DIGEST_SQL = "SELECT count(*)::int AS n, md5(string_agg(b::text, '|' ORDER BY b.session_id, b.block)) AS rows FROM chatkeep.search_blocks b";

describe("PostgreSQL schema upgrade to search's best message found for the sessions shown", () => {
  it('keeps every row, and the match and each best message are as before for the admin and a member', async () => {
    const url = await databaseBefore(SEARCH_BEST_SHOWN_MIGRATION);
    const { a, b, owners, sessions } = await twoInOneProject(url, 'sw', SESSIONS, ', 1 + n % 40 AS messages');
    await writeTeamMessages(url, owners, sessions);
    await runSql(url, `INSERT INTO chatkeep.search_blocks (session_id, owner, block, folded) ${blocksOf('chatkeep.search_messages')}`);
    // Blocks lost: sw-38's second (its best message, 36, in it), sw-78's first cut to 3 messages, all of sw-118's.
    await runSql(url, "DELETE FROM chatkeep.search_blocks WHERE (session_id = 'sw-38' AND block = 1) OR session_id = 'sw-118'");
    await runSql(url, "UPDATE chatkeep.search_blocks SET folded = folded[1:3] WHERE session_id = 'sw-78' AND block = 0");
    // sw-1 is b's (n % 2 + 1 = 2), shared with a.
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('sw-1', $1, $2)", [a.role, b.role]);
    await runSql(url, 'ANALYZE');
    const digest = [await runSql(url, TEAM_DIGEST_SQL), await runSql(url, BLOCKS_DIGEST_SQL)];
    const rows: string[][] = [];
    const bests: string[][] = [];
    for (const [word, narrowing] of ASKED) {
      rows.push(await matchedRows(url, word, narrowing));
      bests.push(await bestsMatched(url, word, narrowing));
    }
    // Before, the match gave every session with hits its best message.
    expect(bests[1]!.length).toBeGreaterThan(SESSIONS / 2);
    expect(bests[1]).toHaveLength(rows[1]!.length);
    expect(bests[1]).toEqual(expect.arrayContaining(['sw-38 36 2', 'sw-78 38 2', 'sw-118 37 2']));
    expect(bests[2]).toHaveLength(10);

    await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect([await runSql(url, TEAM_DIGEST_SQL), await runSql(url, BLOCKS_DIGEST_SQL)]).toEqual(digest);
    const match = await serverKeptPlan(url, 'search_match');
    for (const narrowing of ['trgm', 'grams', undefined] as const) expect(match.prosrc).toContain(matchSql(narrowing));
    expect((await serverKeptPlan(url, 'search_results')).prosrc).toContain(SEARCH_RESULTS_BEST_SQL);

    const hers = (r: string): boolean => /^\(?sw-(\d*[02468]|1)[, ]/.test(r);
    for (const [i, [word, narrowing]] of ASKED.entries()) {
      expect(await matchedRows(url, word, narrowing)).toEqual(rows[i]);
      expect(await matchedRows(a.url, word, narrowing)).toEqual(rows[i]!.filter(hers));
      // Through the index each best message comes with the hits; from the blocks, only where they do not cover.
      const free = ASKED[i]![2] === 'all' ? bests[i]! : bests[i]!.filter((r) => UNCOVERED.includes(r.split(' ')[0]!));
      expect(await bestsMatched(url, word, narrowing)).toEqual(free);
      const ids = bests[i]!.map((r) => r.split(' ')[0]!);
      expect(await bestsShown(url, ids, word)).toEqual(bests[i]);
      // The member: no best message, and no row, of a session she may not read.
      expect(await bestsShown(a.url, ids, word)).toEqual(bests[i]!.filter(hers));
    }

    // The member's search through her store: each result's snippet from the message the match found before.
    const cwd = tmpHome('chatkeep-upgrade-');
    const store = await openPostgresStore(a.url, { interpreter, cwd });
    try {
      const project = { ...store.project, key: 'p', path: '/p' } as ProjectInfo;
      const found = await store.searchSessions('Journal', [project], { limit: 0 });
      const shown = found.results.map((r) => `${r.session.id} ${r.snippet?.message} ${r.snippet?.text.includes('journal')}`).sort();
      expect(shown).toEqual(bests[1]!.filter(hers).map((r) => `${r.split(' ').slice(0, 2).join(' ')} true`).sort());
    } finally {
      await store.close();
    }
    expect([await runSql(url, TEAM_DIGEST_SQL), await runSql(url, BLOCKS_DIGEST_SQL)]).toEqual(digest);
  }, 300_000);
});
