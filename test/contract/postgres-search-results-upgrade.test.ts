/**
 * A team's database of 10,000 sessions at the schema before search's results became one statement
 * (`chatkeep.search_results`, search-results.ts), upgraded by this build: every row of every table
 * as it was, the function this build's query, and for a member (her own, one shared with her, none
 * of the other's), the other member and the admin, the listing rows of the same IDs what
 * `chatkeep.listing_of` gives, each with the message the snippets' statement of the build before
 * read for it. A member's search through the store then shows the sessions, statuses and snippets
 * that the build before's three statements gave. (A build that knows only the schema before
 * refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LISTED_OF_SQL } from '../../src/store/postgres/listing-sql.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { MATCHED_SQL } from '../../src/store/postgres/search-match.js';
import { SEARCH_RESULTS_BEST_SQL, SEARCH_RESULTS_MIGRATION, SEARCHED_RESULTS_SQL } from '../../src/store/postgres/search-results.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { schemaVersion, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';
import { withListedStatuses } from '../helpers/listed-statuses.js';
import { serverKeptPlan } from '../helpers/server-function.js';

const SESSIONS = 10_000;

/** The snippets' messages as the build before read them (search.ts, bestMessages). */
const SNIPPETS_BEFORE_SQL = `SELECT m.session_id, m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
  JOIN unnest($1::text[], $2::int[]) AS w(id, n) ON m.session_id = w.id AND m.n = w.n`;

type Row = Record<string, unknown> & { id: string };
const byId = <T extends { id: string }>(rows: T[]): T[] => [...rows].sort((x, y) => x.id.localeCompare(y.id));
const BEST = ['best', 'best_hits', 'best_role', 'best_at', 'best_archived', 'best_content'];
const listingOnly = (r: Row): Row => Object.fromEntries(Object.entries(r).filter(([k]) => !BEST.includes(k))) as Row;

// Search rows as each session's snapshot would have written them: a title and, for ru-120…ru-129,
// three messages, the second and third holding `zanzibar` (the third twice: the best).
const SEARCH_ROWS = [
  `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, title, folded_title)
      SELECT id, owner, snapshot_version, 0, CASE WHEN id ~ '^ru-12[0-9]$' THEN 3 ELSE 0 END, 0, title, lower(title) FROM chatkeep.sessions`,
  `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
      SELECT s.id, s.owner, k, CASE WHEN k = 1 THEN 'assistant' ELSE 'user' END, 1764000000000 + k, k = 0, to_json(t), lower(t)
      FROM chatkeep.sessions s, generate_series(0, 2) k,
        LATERAL (SELECT CASE k WHEN 0 THEN 'Nothing here in ' || s.id WHEN 1 THEN 'Zanzibar, once' ELSE 'zanzibar and Zanzibar again, ' || s.id END AS t) m
      WHERE s.id ~ '^ru-12[0-9]$'`,
];

describe("PostgreSQL schema upgrade to search's results in one statement", () => {
  it('keeps every row of a 10,000-session database, and gives each reader the rows and messages the two statements before gave', async () => {
    await withListedStatuses(SEARCH_RESULTS_MIGRATION, 'search_results', 'r', SESSIONS, SEARCH_ROWS, async ({ url, a, b, cwd }) => {
      const ids = ['ru-120', 'ru-121', 'ru-124', 'ru-125', 'ru-126', 'ru-127', 'ru-128', 'ru-9998', 'ru-no-such'];
      // The message each ID's snippet comes from (none for two of them).
      const ns = ids.map((id) => (id === 'ru-128' || id === 'ru-9998' ? null : 2));
      type Asked = { rows: Row[]; messages: Record<string, unknown>[] };
      const askedBefore = async (who: string): Promise<Asked> => ({
        rows: byId(await runSql<Row>(who, LISTED_OF_SQL, [['p0', 'p1'], ids])),
        messages: (await runSql<Record<string, unknown> & { session_id: string }>(who, SNIPPETS_BEFORE_SQL, [ids, ns])).sort((x, y) => x.session_id.localeCompare(y.session_id)),
      });
      const before = [await askedBefore(a.url), await askedBefore(b.url), await askedBefore(url)];
      const said = (rows: Row[]): string[] => rows.map((r) => `${r.id} ${String(r.live)}${r.shared_by === null ? '' : ' shared'}`);
      expect(said(before[0]!.rows)).toEqual(['ru-120 closed', 'ru-124 interrupted', 'ru-125 closed shared', 'ru-126 open', 'ru-128 interrupted', 'ru-9998 closed']);
      expect(said(before[1]!.rows)).toEqual(['ru-121 closed', 'ru-125 closed', 'ru-127 closed']);
      expect(before[0]!.messages.map((m) => m.session_id)).toEqual(['ru-120', 'ru-124', 'ru-125', 'ru-126']);
      // The first member's search as the build before ran it: its match, then those sessions' rows and best messages
      // (each the third, 2; the match counts these from their blocks and leaves it to the results since schema 32: below).
      const found = byId(await runSql<{ id: string }>(a.url, MATCHED_SQL, [['p0', 'p1'], 'zanzibar', null, null]));
      expect(found.map((r) => r.id)).toEqual(['ru-120', 'ru-122', 'ru-124', 'ru-125', 'ru-126', 'ru-128']);
      const digest = await runSql(url, TEAM_DIGEST_SQL);

      const store = await openPostgresStore(url, { interpreter, cwd });
      await store.close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(digest);
      const fn = await serverKeptPlan(url, 'search_results');
      expect(fn.prosrc).toContain(SEARCH_RESULTS_BEST_SQL);
      expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);
      for (const [i, who] of [a.url, b.url, url].entries()) {
        // Each message named, none to find (since schema 32 the function can find a best message itself: search-hits.ts).
        const now = byId(await runSql<Row>(who, SEARCHED_RESULTS_SQL, [['p0', 'p1'], ids, ns, 'zanzibar', ids.map(() => false)]));
        expect(now.map(listingOnly)).toEqual(before[i]!.rows);
        const messages = now.flatMap((r) => (r.best_role === null ? [] : [{ session_id: r.id, role: r.best_role, at: r.best_at, archived: r.best_archived, content: r.best_content }]));
        expect(messages).toEqual(before[i]!.messages);
      }

      // The member's store on the upgraded server: the same sessions, statuses and owners, each snippet from its best message.
      const annStore = await openPostgresStore(a.url, { interpreter, cwd });
      try {
        const projects = ['p0', 'p1'].map((key) => ({ ...annStore.project, key, path: `/${key}` }) as ProjectInfo);
        const results = byId((await annStore.searchSessions('zanzibar', projects, {})).results.map((r) => ({
          id: r.session.id, status: r.session.status, owner: r.session.owner ?? null, hits: r.hits, snippet: r.snippet && `${r.snippet.message} ${r.snippet.role} ${r.snippet.text}`,
        })));
        expect(results.map((r) => `${r.id} ${r.status}${r.owner === null ? '' : ' shared'} ${r.hits}`)).toEqual([
          'ru-120 closed 3', 'ru-122 closed 3', 'ru-124 interrupted 3', 'ru-125 closed shared 3', 'ru-126 open 3', 'ru-128 interrupted 3',
        ]);
        for (const r of results) expect(r.snippet).toMatch(new RegExp(`^2 user .*zanzibar and Zanzibar again, ${r.id}`));
      } finally {
        await annStore.close();
      }
      expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(digest);
    });
  });
});
