/**
 * A database of 10,000 sessions at the schema before search's match read a single user's
 * sessions by the index on the project (SEARCH_MATCH_BY_PROJECT_MIGRATION), upgraded by this
 * build: every row as it was, `chatkeep.search_match` this build's, and its rows for each search
 * the same as the function's before (stale, title-stale, pending and trashed sessions among them;
 * a project of most of the server's sessions, whose facts are read in one pass, and one of a few,
 * read by key). The project's key is long enough to be kept in TOAST, as a remote or a path is:
 * the function reads the project's sessions by the index that holds it, never every session's
 * row. (A build that knows only the schema before refuses the result as any newer schema:
 * postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { MATCHED_SQL, matchSql, SEARCH_MATCH_BY_PROJECT_MIGRATION, type MatchRow } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { calledRowsRead } from '../helpers/plan-rows.js';
import { runSql } from '../helpers/postgres.js';
import { makeUncovered, writeSearchFacts } from '../helpers/search-facts.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { databaseBefore, schemaVersion, SESSIONS_DIGEST_SQL, TEAM_DIGEST_SQL } from '../helpers/schema-at.js';

/** Every row of the sessions, their events and their search rows. */
const DIGESTS = `SELECT a.events, a.event_rows, b.* FROM (${SESSIONS_DIGEST_SQL}) a, (${TEAM_DIGEST_SQL}) b`;

/** Sessions of the big project; the small one has SMALL. */
const BIG = 8_000;
const SMALL = 2_000;
/** Past 24 bytes: `sessions` keeps it in TOAST (toast_tuple_target = 128). */
const P = 'github.com/example/a-project-with-a-long-remote';
const Q = 'q';

/** Every session's rows written as a snapshot writes them, then the exceptions a search must still find. */
async function fill(url: string): Promise<void> {
  await runSql(url, 'INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, $3), ($4, $5, $3)', [P, '/home/someone/a-project', 'h', Q, '/q']);
  const all = `SELECT 'sp-' || n AS id, n, CASE WHEN n <= ${BIG} THEN '${P}' ELSE '${Q}' END AS key FROM generate_series(1, ${BIG + SMALL}) n`;
  await runSql(url, `INSERT INTO chatkeep.ids (id) SELECT id FROM (${all}) a`);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count, snapshot)
     SELECT id, key, CASE WHEN key = '${Q}' THEN '/q' ELSE '/home/someone/a-project' END, 'Session ' || n,
       timestamptz '2026-11-24 10:00Z' - n * interval '1 minute', timestamptz '2026-11-24 10:00Z' - n * interval '1 minute', 'closed', 1, 1,
       repeat('{"messages":[]} ', 40)
     FROM (${all}) a`,
  );
  await writeSearchFacts(url, `SELECT id, 'Session ' || n AS title FROM (${all}) a`);
  await runSql(
    url,
    `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
     SELECT id, current_user, 0, 'user', 0, false, '"x"', 'message of ' || n || CASE WHEN n % 97 = 0 THEN ' and a heron, heron' ELSE '' END FROM (${all}) a`,
  );
  // Facts of an older snapshot, a title renamed since, no facts at all, events past the facts, trashed.
  await makeUncovered(url, { stale: ['sp-5', 'sp-8005'], renamed: ['sp-6', 'sp-8006'], unindexed: ['sp-7', 'sp-8007'], pending: ['sp-9', 'sp-8009'], trashed: ['sp-97', 'sp-8051'] });
  await runSql(url, 'ANALYZE');
}

/** Searches of both projects, both together (one twice), by each narrowing and a query too short for one. */
const SEARCHES: [string[], string, string | null, string | null][] = [
  [[P], 'heron', '%heron%', 'trgm'],
  [[Q], 'heron', '%heron%', 'trgm'],
  [[P, Q, P], 'heron', '%heron%', 'trgm'],
  [[P], 'session 12', '%session 12%', 'trgm'],
  [[Q], 'heron', "'her' & 'ero' & 'ron'", 'grams'],
  [[P, Q], 'he', null, null],
];

/** Each search's rows, in ID order. */
async function matches(client: pg.Client): Promise<MatchRow[][]> {
  const out: MatchRow[][] = [];
  for (const args of SEARCHES) out.push((await client.query<MatchRow>(MATCHED_SQL, args)).rows.sort((a, b) => (a.id < b.id ? -1 : 1)));
  return out;
}

describe('PostgreSQL schema upgrade to the sessions by project for a role that sees every session', () => {
  it("keeps every row and every search's rows, and reads the projects' sessions by their index", async () => {
    const url = await databaseBefore(SEARCH_MATCH_BY_PROJECT_MIGRATION);
    await fill(url);
    const before = await runSql(url, DIGESTS);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-upgrade-'));
    try {
      const found = await matches(client);
      // What the searches hold: a word in every 97th session, and every exception but the trashed.
      expect(found[0]!.filter((r) => r.hits !== null).map((r) => r.id)).toHaveLength(Math.floor(BIG / 97) - 1);
      expect(found[0]!.filter((r) => r.stale || r.pending || r.title_stale).map((r) => r.id).sort()).toEqual(['sp-5', 'sp-6', 'sp-7', 'sp-9']);
      expect(found[2]!.map((r) => r.id)).not.toContain('sp-8051');
      expect(found[2]!.filter((r) => r.stale || r.pending || r.title_stale)).toHaveLength(8);

      const store = await openPostgresStore(url, { interpreter, cwd });
      await store.close();
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, DIGESTS)).toEqual(before);
      const fn = await serverKeptPlan(url, 'search_match');
      for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
      // Scans off for a role that sees every session only, inside the call (a member's plan keeps them: search-match.ts).
      expect(fn.proconfig).toContain('enable_seqscan=on');
      expect(fn.prosrc).toContain("PERFORM set_config('enable_seqscan', 'off', true)");

      // A new connection, whose kept plan is this build's.
      const after = new pg.Client({ connectionString: url });
      await after.connect();
      try {
        expect(await matches(after)).toEqual(found);
        const role = (await runSql<{ role: string }>(url, 'SELECT current_user AS role'))[0]!.role;
        const sessionsRead = async (keys: string[]): Promise<number> =>
          (await calledRowsRead(after, role, MATCHED_SQL, [keys, 'heron', '%heron%', 'trgm'], new Set(['sessions']))).read;
        // The project's own rows (the small project's facts by key, the big one's in one pass), never the other's.
        expect(await sessionsRead([Q])).toBeLessThanOrEqual(SMALL + 5);
        expect(await sessionsRead([P])).toBeLessThanOrEqual(BIG + 5);
        const factsRead = async (keys: string[]): Promise<number> =>
          (await calledRowsRead(after, role, MATCHED_SQL, [keys, 'heron', '%heron%', 'trgm'], new Set(['search_sessions']))).read;
        expect(await factsRead([Q])).toBeLessThanOrEqual(SMALL);
      } finally {
        await after.end();
      }
    } finally {
      await client.end();
      await rm(cwd, { recursive: true, force: true });
    }
    expect(await runSql(url, DIGESTS)).toEqual(before);
  });
});
