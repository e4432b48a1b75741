/**
 * A member's listing and search on a team's server cost what the member reads, not what the
 * server holds (docs/design.md §9, §18): another member's 4,000 sessions in the same project, each
 * with events and search rows, are not read by them, however row security is checked. Measured
 * as the rows each plan node of the listing's and the search's own queries reads from chatkeep's
 * tables (EXPLAIN ANALYZE as the member), with the answers still what row security allows: own
 * sessions, one shared read-only, and each held session `open`, also the shared one whose lock
 * key the member may not read.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { LIST_SQL } from '../../src/store/postgres/reading.js';
import { matchStatement } from '../../src/store/postgres/search-match.js';
import { SEARCH_LIKE_SETTING } from '../../src/store/postgres/search-narrowing.js';
import { adoptedSession } from '../helpers/adopted.js';
import { runSql } from '../helpers/postgres.js';
import { explainRowsRead } from '../helpers/plan-rows.js';
import { twoMembers } from '../helpers/team-stores.js';

const WORD = 'wombatplan';
const OTHERS = 4_000;
const TABLES = new Set(['sessions', 'events', 'holders', 'lock_keys', 'search_sessions', 'search_messages', 'shares']);

async function explained(client: pg.Client, sql: string, params: unknown[]): Promise<number> {
  return explainRowsRead(client, sql, params, TABLES);
}

describe("a member's reads on a team's server", () => {
  it("list and search read the member's own rows, not another member's 4,000 sessions, events and search rows", async () => {
    const { url, ann, bob, annStore, bobStore, close } = await twoMembers('mr');
    const client = new pg.Client({ connectionString: ann.url });
    await client.connect();
    const noLoss = (): void => undefined;
    try {
      const base = Date.UTC(2026, 10, 20);
      const mine = [
        await adoptedSession(annStore, 'mr-ann-1', `ann's ${WORD} for the week`, { at: base + 1000, title: `ann's ${WORD} for the week` }),
        await adoptedSession(annStore, 'mr-ann-2', 'ann on something else', { at: base + 2000, title: 'ann on something else' }),
      ];
      const shared = await adoptedSession(bobStore, 'mr-bob-shared', `bob's ${WORD}, shared`, { at: base + 3000, title: `bob's ${WORD}, shared` });
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', [shared, ann.role]);
      // bob's other sessions in the same project, each with two events and search rows holding the word.
      const key = keyOf(annStore.project);
      await runSql(url, "INSERT INTO chatkeep.ids (id, owner) SELECT 'mr-x-' || n, $1 FROM generate_series(1, $2::int) n", [bob.role, OTHERS]);
      await runSql(
        url,
        `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, snapshot_version)
         SELECT 'mr-x-' || n, $1, $2, '/p', 'other ' || n, now(), now(), 'closed', 1 FROM generate_series(1, $3::int) n`,
        [bob.role, key, OTHERS],
      );
      await runSql(
        url,
        `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload)
         SELECT 'mr-x-' || n, k, now(), 'message', '{}' FROM generate_series(1, $1::int) n, generate_series(1, 2) k`,
        [OTHERS],
      );
      await runSql(
        url,
        `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
         SELECT 'mr-x-' || n, $2, 1, 2, 1, 0, 't', 'other ' || n, 'other ' || n FROM generate_series(1, $1::int) n`,
        [OTHERS, bob.role],
      );
      await runSql(
        url,
        `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
         SELECT 'mr-x-' || n, $2, 0, 'user', 0, false, '"x"', 'bob ${WORD} ' || n FROM generate_series(1, $1::int) n`,
        [OTHERS, bob.role],
      );
      await runSql(url, 'ANALYZE');

      // Held: one of ann's by ann, and bob's shared one by bob (whose lock key ann may not read).
      const annLock = await annStore.lock(mine[0]!, noLoss);
      const bobLock = await bobStore.lock(shared, noLoss);
      try {
        const project = { ...annStore.project, key } as ProjectInfo;
        const listed = await annStore.list([project]);
        expect(listed.map((r) => [r.id, r.status, r.owner ?? 'mine'])).toEqual([
          [shared, 'open', bob.role],
          [mine[1], 'closed', 'mine'],
          [mine[0], 'open', 'mine'],
        ]);
        const found = await annStore.searchSessions(WORD, [project], {});
        expect(found.results.map((r) => r.session.id).sort()).toEqual([mine[0], shared].sort());

        expect(await explained(client, LIST_SQL, [[key]])).toBeLessThan(100);
        await client.query(`BEGIN; SET LOCAL ${SEARCH_LIKE_SETTING} = '%${WORD}%'`);
        expect(await explained(client, matchStatement('trgm'), [[key], WORD, `%${WORD}%`])).toBeLessThan(100);
        await client.query('ROLLBACK');
      } finally {
        await annLock.release();
        await bobLock.release();
      }
    } finally {
      await client.end();
      await close();
    }
  });
});
