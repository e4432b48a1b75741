/**
 * The team's database the search upgrade tests fill at an older schema: two members' sessions in
 * one project `p`, each with its search facts and two messages, the word `heron` in the first and
 * every 97th, sessions the rows do not cover and trashed ones of each member, one of b's shared with
 * a; and each search's match rows as a role gets them, to compare before and after an upgrade.
 */
import pg from 'pg';
import { expect } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { MATCHED_SQL, matchSql, type MatchRow } from '../../src/store/postgres/search-match.js';
import { calledRowsRead, scansOf } from './plan-rows.js';
import { runSql } from './postgres.js';
import { databaseBefore, schemaVersion, SESSIONS_DIGEST_SQL, TEAM_DIGEST_SQL } from './schema-at.js';
import { serverKeptPlan } from './server-function.js';
import { tmpHome } from './tmp-home.js';
import { makeUncovered } from './search-facts.js';
import { twoInOneProject, type Person } from './team.js';

/** Every row of the sessions, their events and their search rows. */
export const DIGESTS = `SELECT a.events, a.event_rows, b.* FROM (${SESSIONS_DIGEST_SQL}) a, (${TEAM_DIGEST_SQL}) b`;

/** Searches of the project, by each narrowing and a query too short for one. */
export const SEARCHES: [string[], string, string | null, string | null][] = [
  [['p'], 'heron', '%heron%', 'trgm'],
  [['p'], 'session 12', '%session 12%', 'trgm'],
  [['p'], 'heron', "'her' & 'ero' & 'ron'", 'grams'],
  [['p'], 'he', null, null],
];

/** Each search's rows as the role of `url` gets them, in ID order, on a new connection (whose kept plan is the server's function now). */
export async function matches(url: string): Promise<MatchRow[][]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: MatchRow[][] = [];
    for (const args of SEARCHES) out.push((await client.query<MatchRow>(MATCHED_SQL, args)).rows.sort((a, b) => (a.id < b.id ? -1 : 1)));
    return out;
  } finally {
    await client.end();
  }
}

/**
 * `count` sessions `PREFIX-n` of two new members (a's even, b's odd) with their search rows:
 * `PREFIX-5`/`-6` stale, `-7`/`-8` renamed, `-9`/`-10` unindexed, `-11`/`-12` pending, `-97`/`-194`
 * trashed; `PREFIX-1` (b's) shared with a.
 */
export async function teamSearchRows(url: string, prefix: string, count: number): Promise<{ a: Person; b: Person; owners: string[] }> {
  const { a, b, owners, sessions } = await twoInOneProject(url, prefix, count);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
     SELECT id, owner, 'p', '/p', 'Session ' || n, now(), now(), 'closed', 1, 2 FROM (${sessions}) x`,
    [owners],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_sessions (session_id, owner, snapshot_version, seq, messages, archived, tail, title, folded_title)
     SELECT id, owner, 1, 2, 2, 0, 't' || n, 'Session ' || n, 'session ' || n FROM (${sessions}) x`,
    [owners],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.search_messages (session_id, owner, n, role, at, archived, content, folded)
     SELECT id, owner, k, 'user', k, false, to_json('message ' || k || ' of ' || n), 'message ' || k || ' of ' || n || CASE WHEN (n % 97 = 0 OR n = 1) AND k = 1 THEN ' heron' ELSE '' END
     FROM (${sessions}) x, generate_series(0, 1) k`,
    [owners],
  );
  const id = (n: number): string => `${prefix}-${n}`;
  await makeUncovered(url, { stale: [id(5), id(6)], renamed: [id(7), id(8)], unindexed: [id(9), id(10)], pending: [id(11), id(12)], trashed: [id(97), id(194)] });
  // PREFIX-1 is b's (n % 2 + 1 = 2).
  await runSql(url, 'INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ($1, $2, $3)', [id(1), a.role, b.role]);
  await runSql(url, 'ANALYZE');
  return { a, b, owners };
}

/**
 * The admin's first search (SEARCHES[0]) by the server's match, as `url`'s superuser asking as
 * itself: the rows its own queries read of `tables` and its plans, as calledRowsRead gives them.
 */
export async function adminSearchRead(url: string, tables: ReadonlySet<string>): Promise<{ read: number; plans: string[] }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const [{ role }] = (await admin.query<{ role: string }>('SELECT current_user AS role')).rows as [{ role: string }];
    return await calledRowsRead(admin, role, MATCHED_SQL, SEARCHES[0]!, tables);
  } finally {
    await admin.end();
  }
}

/**
 * Once the team is set up (row security for `owners`), each member's match rows for SEARCHES, and
 * the admin's `found` cut to the sessions she may read: her own, and for `a` `shared` too. A test
 * expects them equal.
 */
export async function membersBesideAdmin(
  url: string,
  owners: string[],
  people: { a: Person; b: Person },
  shared: string,
  found: MatchRow[][],
): Promise<{ a: [MatchRow[][], MatchRow[][]]; b: [MatchRow[][], MatchRow[][]] }> {
  await withPool(url, {}, (pool, target) => setupTeam(pool, target, owners, false), { migrate: false });
  const owned = async (role: string): Promise<Set<string>> =>
    new Set((await runSql<{ id: string }>(url, 'SELECT id FROM chatkeep.sessions WHERE owner = $1', [role])).map((r) => r.id));
  const [ofA, ofB] = [await owned(people.a.role), await owned(people.b.role)];
  ofA.add(shared);
  const readable = (of: Set<string>): MatchRow[][] => found.map((rows) => rows.filter((r) => of.has(r.id)));
  return { a: [await matches(people.a.url), readable(ofA)], b: [await matches(people.b.url), readable(ofB)] };
}

/**
 * How many times the admin's match reads `table` (each scan of it, inlined into the match's plan
 * or in the function's own statement, as often as it ran: a lookup by key per session is one each),
 * by auto_explain's account of the function's statements as they ran.
 */
export async function adminScans(url: string, table: string): Promise<number> {
  const { plans } = await adminSearchRead(url, new Set([table]));
  return scansOf(plans, table);
}

/**
 * How many times the admin's match asks whether its role sees every session (`chatkeep.is_chatkeep()`,
 * each asking a scan of `pg_namespace`; no policy asks it for the admin).
 */
export const adminCatalogScans = (url: string): Promise<number> => adminScans(url, 'pg_namespace');

/**
 * The database before `migration` with `count` sessions `PREFIX-n` of two members (teamSearchRows),
 * upgraded by this build and checked: every row as it was, `chatkeep.search_match` this build's,
 * the admin's match rows the same as before (stale, title-stale, pending and trashed sessions among
 * them), and each member's the admin's rows she may read (a shared one for a). `measured` before
 * and after, for the caller to judge.
 */
export async function upgradedFrom(migration: string, prefix: string, count: number, measured: (url: string) => Promise<number>): Promise<{ before: number; after: number }> {
  const url = await databaseBefore(migration);
  const { a, b, owners } = await teamSearchRows(url, prefix, count);
  const digests = await runSql(url, DIGESTS);
  const found = await matches(url);
  const before = await measured(url);
  const id = (n: number): string => `${prefix}-${n}`;
  // What the searches hold: the word in PREFIX-1 and every 97th session (but the trashed), and every exception.
  expect(uncoveredIds(found[0]!)).toEqual([10, 11, 12, 5, 6, 7, 8, 9].map(id));
  expect(found[0]!.filter((r) => r.hits !== null)).toHaveLength(Math.floor(count / 97) - 2 + 1);
  expect(found[0]!.map((r) => r.id)).not.toContain(id(97));

  await (await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-upgrade-') })).close();
  expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
  expect(await runSql(url, DIGESTS)).toEqual(digests);
  const fn = await serverKeptPlan(url, 'search_match');
  for (const narrowing of ['trgm', 'grams', undefined] as const) expect(fn.prosrc).toContain(matchSql(narrowing));
  expect(await matches(url)).toEqual(found);
  const after = await measured(url);

  // Each member: the admin's rows of the sessions row security lets them read (their own, and for a the one shared with her), the same.
  const members = await membersBesideAdmin(url, owners, { a, b }, id(1), found);
  expect(members.a[0]).toEqual(members.a[1]);
  expect(members.b[0]).toEqual(members.b[1]);
  expect(uncoveredIds((await matches(a.url))[0]!)).toEqual([10, 12, 6, 8].map(id));
  expect(await runSql(url, DIGESTS)).toEqual(digests);
  return { before, after };
}

/** The IDs of the match rows that their search rows do not cover (stale, pending or title-stale), sorted. */
export const uncoveredIds = (rows: MatchRow[]): string[] => rows.filter((r) => r.stale || r.pending || r.title_stale).map((r) => r.id).sort();
