/**
 * A team member's search costs what the word is in the member's own messages, not in the
 * server's (docs/design.md §18): a member with more messages than SESSION_BY_SESSION reads
 * session by session, once a sample of their own sessions shows the word in most messages, and
 * takes the trigram index for a word the sample does not hold. Another member's 10,000 messages
 * holding the common word are not read for it. Measured as the rows the match query reads from
 * `search_messages` by the one generic plan the server's function keeps for every word (auto_explain
 * as the member, the common word first, then the rare one), with the answers what row security
 * allows: the member's own sessions and one shared with them, never the other member's others.
 * Each of the member's sessions is read once: its search rows pass row security by their owner.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { MATCHED_SQL } from '../../src/store/postgres/search-match.js';
import { SESSION_BY_SESSION } from '../../src/store/postgres/search-path.js';
import { adoptedSession } from '../helpers/adopted.js';
import { runSql } from '../helpers/postgres.js';
import { calledRowsRead } from '../helpers/plan-rows.js';
import { twoMembers } from '../helpers/team-stores.js';

const COMMON = 'ledgerline';
const RARE = 'wombatrare';
/** The member's sessions of one message each: past SESSION_BY_SESSION's `upTo`. */
const MINE = SESSION_BY_SESSION.upTo + 100;
/** The other member's sessions, of 100 messages each, every message holding COMMON. */
const THEIRS = 100;

/**
 * The match query as the search runs it for `word` (the server's function, by the plan it keeps:
 * one generic plan for every word), as the member `role`: the rows it read of `table`.
 */
async function explained(admin: pg.Client, role: string, key: string, word: string, table = 'search_messages'): Promise<number> {
  return (await calledRowsRead(admin, role, MATCHED_SQL, [[key], word, `%${word}%`, 'trgm'], new Set([table]))).read;
}

/** Sessions `prefix-1` … `prefix-count` of `owner` in project `key`, each of `messages` messages from `text(n, k)`, with their search rows. */
async function sessions(url: string, owner: string, key: string, prefix: string, count: number, messages: number, text: string): Promise<void> {
  const ids = `SELECT '${prefix}-' || n AS id, n FROM generate_series(1, ${count}) n`;
  await runSql(url, `INSERT INTO chatkeep.ids (id, owner) SELECT id, $1 FROM (${ids}) i`, [owner]);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
     SELECT id, $1, $2, '/p', 'plain ' || n, now(), now(), 'closed', 1, ${messages} FROM (${ids}) i`,
    [owner, key],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
     SELECT id, $1, 1, 0, ${messages}, 0, 't', 'plain ' || n, 'plain ' || n FROM (${ids}) i`,
    [owner],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
     SELECT id, $1, k, 'user', 0, false, '"x"', ${text} FROM (${ids}) i, generate_series(0, ${messages - 1}) k`,
    [owner],
  );
}

describe("a member's search on a team's server", () => {
  it("reads a common word in the member's own sessions and a rare one by the index, never another's common hits", async () => {
    const { url, ann, bob, annStore, bobStore, close } = await twoMembers('ms');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Through the stores: each member's project row, and one session each with both words.
      await adoptedSession(annStore, 'ms-ann-own', `ann's ${COMMON} and ${RARE}`);
      await adoptedSession(bobStore, 'ms-bob-own', `bob's ${COMMON} and ${RARE}`);
      const key = keyOf(annStore.project);
      // ann: MINE sessions of one message, each holding COMMON, the first also RARE.
      await sessions(url, ann.role, key, 'ms-a', MINE, 1, `'ann ${COMMON} ' || n || CASE WHEN n = 1 THEN ' ${RARE}' ELSE '' END`);
      // bob: THEIRS sessions of 100 messages, each holding COMMON; RARE in the first message of the first two.
      await sessions(url, bob.role, key, 'ms-b', THEIRS, 100, `'bob ${COMMON} ' || k || CASE WHEN k = 0 AND n <= 2 THEN ' ${RARE}' ELSE '' END`);
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', ['ms-b-1', ann.role]);
      await runSql(url, 'ANALYZE');

      const project = { ...annStore.project, key } as ProjectInfo;
      // Every one of ann's sessions and the shared one; none of bob's others.
      const common = await annStore.searchSessions(COMMON, [project], { limit: 0 });
      const ids = new Set(common.results.map((r) => r.session.id));
      expect(common.total).toBe(MINE + 2);
      expect(ids.has('ms-b-1') && ids.has('ms-ann-own') && ids.has(`ms-a-${MINE}`)).toBe(true);
      expect([...ids].filter((id) => id.startsWith('ms-b') || id.startsWith('ms-bob'))).toEqual(['ms-b-1']);
      expect(common.results.find((r) => r.session.id === 'ms-b-1')?.hits).toBe(100);
      const rare = await annStore.searchSessions(RARE, [project], {});
      expect(rare.results.map((r) => r.session.id).sort()).toEqual(['ms-a-1', 'ms-ann-own', 'ms-b-1']);

      // The common word: ann's own messages (MINE + 1, the shared session's 100, a sample), not bob's 10,000.
      expect(await explained(client, ann.role, key, COMMON)).toBeLessThan(MINE + 1 + 100 + 2 * SESSION_BY_SESSION.sample.sessions);
      // The rare word: the index's few candidates and the sample, not ann's thousands.
      expect(await explained(client, ann.role, key, RARE)).toBeLessThan(100);
      // Row security passes ann's own search rows by their owner (search-owner.ts): her sessions are read once, for
      // the listing's columns, not again for each of her search facts and messages; only the shared session's rows look theirs up.
      for (const word of [COMMON, RARE]) expect(await explained(client, ann.role, key, word, 'sessions')).toBeLessThan(MINE + 1 + 2 * (100 + 1) + 10);
    } finally {
      await client.end();
      await close();
    }
  });
});
