/**
 * A team's database of 10,000 sessions at the schema before search's listing rows became the
 * server's function `chatkeep.listing_of` (listing-sql.ts), upgraded by this build: every row of
 * every table as it was, the function this build's query, and the listing rows of the same IDs
 * what the statement the build before sent gave, for a member (her own, one shared with her, none
 * of the other's), the other member and the admin: the same rows, the same status (`open` under a
 * lock held by another connection, `interrupted` for a dead holder's row and a session left open).
 * A member's search finds what the build before's match found, with those rows. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LIST_SQL, LISTED_OF_SQL, LISTING_OF_MIGRATION, LISTING_OF_SQL } from '../../src/store/postgres/listing-sql.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { MATCHED_SQL } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { schemaVersion, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';
import { withListedStatuses } from '../helpers/listed-statuses.js';
import { serverKeptPlan } from '../helpers/server-function.js';

const SESSIONS = 10_000;

/** What the build before sent for search's listing rows (reading.ts, listRowsOf). */
const SENT_BEFORE_SQL = `SELECT l.* FROM (${LIST_SQL}) l WHERE l.id = ANY($2)`;

type Row = Record<string, unknown> & { id: string };
const byId = (rows: Row[]): Row[] => [...rows].sort((x, y) => x.id.localeCompare(y.id));

// Search rows as each session's snapshot would have written them (a title, no messages).
const SEARCH_ROWS = [
  `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, title, folded_title)
      SELECT id, owner, snapshot_version, 0, 0, 0, title, lower(title) FROM chatkeep.sessions`,
];

describe("PostgreSQL schema upgrade to search's listing rows as a function", () => {
  it('keeps every row of a 10,000-session database, and gives each reader the rows the statement before gave', async () => {
    await withListedStatuses(LISTING_OF_MIGRATION, 'listing_of', 'l', SESSIONS, SEARCH_ROWS, async ({ url, a, b, cwd }) => {
      const ids = ['lu-120', 'lu-121', 'lu-124', 'lu-125', 'lu-126', 'lu-127', 'lu-128', 'lu-9998', 'lu-no-such'];
      const rowsAsked = async (sql: string): Promise<Row[][]> => {
        const asked: Row[][] = [];
        for (const who of [a.url, b.url, url]) asked.push(byId(await runSql<Row>(who, sql, [['p0', 'p1'], ids])));
        return asked;
      };
      const before = await rowsAsked(SENT_BEFORE_SQL);
      const [mine, other, everyone] = before;
      const said = (rows: Row[]): string[] => rows.map((r) => `${r.id} ${String(r.live)}${r.shared_by === null ? '' : ' shared'}`);
      expect(said(mine!)).toEqual(['lu-120 closed', 'lu-124 interrupted', 'lu-125 closed shared', 'lu-126 open', 'lu-128 interrupted', 'lu-9998 closed']);
      expect(said(other!)).toEqual(['lu-121 closed', 'lu-125 closed', 'lu-127 closed']);
      expect(everyone!.map((r) => r.id)).toEqual(ids.slice(0, -1).sort());
      // The first member's search for 'session 12' as the build before ran it: its match, then those sessions' rows.
      const found = (await runSql<{ id: string }>(a.url, MATCHED_SQL, [['p0', 'p1'], 'session 12', null, null])).map((r) => r.id).sort();
      expect(found).toContain('lu-125');
      expect(found).toHaveLength(1 + 56); // lu-12, lu-120…128 even, lu-1200…1298 even; and lu-125.
      const searched = byId(await runSql<Row>(a.url, SENT_BEFORE_SQL, [['p0', 'p1'], found]));
      const digest = await runSql(url, TEAM_DIGEST_SQL);

      const store = await openPostgresStore(url, { interpreter, cwd });
      await store.close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(digest);
      const fn = await serverKeptPlan(url, 'listing_of');
      expect(fn.prosrc).toContain(LISTING_OF_SQL);
      expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);
      expect(await rowsAsked(LISTED_OF_SQL)).toEqual(before);

      // The same search by the member's store on the upgraded server: the same sessions, their rows as before.
      const annStore = await openPostgresStore(a.url, { interpreter, cwd });
      try {
        const projects = ['p0', 'p1'].map((key) => ({ ...annStore.project, key, path: `/${key}` }) as ProjectInfo);
        const results = (await annStore.searchSessions('session 12', projects, { limit: 100 })).results;
        expect(results.map((r) => r.session.id).sort()).toEqual(found);
        const shown = byId(results.map((r) => ({ id: r.session.id, title: r.session.title, status: r.session.status, owner: r.session.owner ?? null })));
        expect(shown).toEqual(searched.map((r) => ({ id: r.id, title: r.title, status: r.live, owner: r.shared_by })));
      } finally {
        await annStore.close();
      }
      expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(digest);
    });
  });
});
