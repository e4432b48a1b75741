/**
 * A team's database of 10,000 sessions with search rows, at the schema before search's blocks,
 * upgraded by the team's setup as an admin runs it: every row as it was, each message's folded text
 * at its place in its session's blocks, and search's match the same rows as before for the admin
 * and for a member (her own sessions and one shared with her), each session's best message too (since
 * schema 32 the results find it for a session counted from its blocks), by every way it reads: session by
 * session (a common word; no narrowing) and through the trigram index (a rare word). A member
 * reads no block of a session she may not read and writes none of another's. (A build that knows
 * only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { SEARCH_MATCH_BLOCKS_MIGRATION } from '../../src/store/postgres/search-match.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from '../helpers/postgres.js';
import { databaseBefore, schemaVersion, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';
import { BLOCKS_SQL, bestsMatched, bestsShown, matchedRows as match, writeTeamMessages } from '../helpers/search-blocks.js';
import { twoInOneProject } from '../helpers/team.js';

const SESSIONS = 10_000;

const ASKED = [['journal', 'trgm'], ['journal', null], ['heron', 'trgm']] as const;

describe('PostgreSQL schema upgrade to search blocks', () => {
  it('makes every session\'s blocks from its messages, keeps every row, and search answers as before for the admin and a member', async () => {
    const url = await databaseBefore(SEARCH_MATCH_BLOCKS_MIGRATION);
    // Two members' sessions of 1 to 40 messages (one or two blocks), `journal` 0 to 2 times a message, `heron` in a few.
    const { a, b, owners, sessions } = await twoInOneProject(url, 'sb', SESSIONS, ', 1 + n % 40 AS messages');
    await writeTeamMessages(url, owners, sessions);
    // sb-1 is b's (n % 2 + 1 = 2), shared with a.
    await runSql(url, "INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('sb-1', $1, $2)", [a.role, b.role]);
    await runSql(url, 'ANALYZE');
    const before = await runSql(url, TEAM_DIGEST_SQL);
    const count = await messages(url);
    const asked = [];
    const bests = [];
    for (const [word, narrowing] of ASKED) {
      asked.push(await match(url, word, narrowing));
      bests.push(await bestsMatched(url, word, narrowing));
    }
    expect(asked[0]!.length).toBeGreaterThan(SESSIONS / 2);
    expect(asked[2]!.length).toBe(10);

    await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
    expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
    expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(before);
    expect(await runSql(url, BLOCKS_SQL)).toEqual([{ misplaced: 0, elements: count, messages: count }]);
    for (const [i, [word, narrowing]] of ASKED.entries()) expect(await match(url, word, narrowing)).toEqual(asked[i]);

    // The member: her own sessions (a's are the even ones) and sb-1, each row as the admin's.
    const hers = (rows: string[]): string[] => rows.filter((r) => /^\(sb-(\d*[02468]|1),/.test(r));
    for (const [i, [word, narrowing]] of ASKED.entries()) expect(await match(a.url, word, narrowing)).toEqual(hers(asked[i]!));
    // Each session's best message as the match found it then: since schema 32 the results find it for a session counted from its blocks.
    for (const [i, [word]] of ASKED.entries()) {
      const ids = bests[i]!.map((r) => r.split(' ')[0]!);
      expect(await bestsShown(url, ids, word)).toEqual(bests[i]);
      expect(await bestsShown(a.url, ids, word)).toEqual(bests[i]!.filter((r) => /^sb-(\d*[02468]|1) /.test(r)));
    }
    const readable = await runSql(url, "SELECT count(*)::int AS n FROM chatkeep.search_blocks WHERE owner = $1 OR session_id = 'sb-1'", [a.role]);
    expect(await runSql(a.url, 'SELECT count(*)::int AS n FROM chatkeep.search_blocks')).toEqual(readable);
    for (const owner of owners) {
      await expect(runSql(a.url, "INSERT INTO chatkeep.search_blocks (session_id, owner, block, folded) VALUES ('sb-3', $1, 9, '{x}')", [owner]))
        .rejects.toMatchObject({ code: '42501' });
    }
    await runSql(a.url, "UPDATE chatkeep.search_blocks SET folded = '{x}' WHERE session_id = 'sb-1'");
    await runSql(a.url, "DELETE FROM chatkeep.search_blocks WHERE session_id = 'sb-1'");
    expect(await runSql(url, BLOCKS_SQL)).toMatchObject([{ misplaced: 0 }]);
  }, 300_000);
});

const messages = async (url: string): Promise<number> => (await runSql<{ n: number }>(url, 'SELECT count(*)::int AS n FROM chatkeep.search_messages'))[0]!.n;
