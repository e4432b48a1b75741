/**
 * A new database whose chatkeep schema is at an older version, as a build of that version left
 * it: for the upgrade tests, which fill it and let this build migrate it.
 */
import { inject } from 'vitest';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { createDatabase, runSql } from './postgres.js';

/** Gives the database at `url`, which has no chatkeep schema yet, the first `version` migrations, each recorded. */
export async function migrateTo(url: string, version: number): Promise<void> {
  await runSql(url, 'CREATE SCHEMA chatkeep');
  await runSql(url, 'CREATE TABLE chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL)');
  for (let v = 1; v <= version; v++) {
    await runSql(url, MIGRATIONS[v - 1]!);
    await runSql(url, "INSERT INTO chatkeep.migrations (version, tool_version) VALUES ($1, '0.1.0')", [v]);
  }
}

/** Creates a database with the schema at `version` (the first `version` migrations, recorded); its URL. */
export async function databaseAtVersion(adminUrl: string, version: number): Promise<string> {
  const url = await createDatabase(adminUrl);
  await migrateTo(url, version);
  return url;
}

/**
 * A new database on the test server at the schema just before `migration`, wherever the migration
 * ends up in the list (a migration is renumbered when two branches each add one); its URL.
 */
export async function databaseBefore(migration: string): Promise<string> {
  const version = MIGRATIONS.indexOf(migration);
  if (version < 1) throw new Error(`databaseBefore: not a migration after the first (index ${version})`);
  return databaseAtVersion(inject('postgresAdminUrl'), version);
}

/** The newest migration the database at `url` has recorded. */
export async function schemaVersion(url: string): Promise<number> {
  return (await runSql<{ v: number }>(url, 'SELECT max(version) AS v FROM chatkeep.migrations'))[0]!.v;
}

/**
 * Fills a database made by `databaseAtVersion` with `sessions` closed sessions of one project,
 * IDs `<prefix>1`…, each with two message events ('message K of N'), as the upgrade tests of the
 * append start from.
 */
export async function fillWithSessions(url: string, prefix: string, sessions: number): Promise<void> {
  await runSql(url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ('p', '/p', 'h')");
  await runSql(url, 'INSERT INTO chatkeep.ids (id) SELECT $2 || n FROM generate_series(1, $1::int) n', [sessions, prefix]);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status)
     SELECT $2 || n, 'p', '/p', 'Session ' || n, timestamptz '2025-11-24 10:00Z' - n * interval '1 minute',
       timestamptz '2025-11-24 10:00Z' - n * interval '1 minute', 'closed' FROM generate_series(1, $1::int) n`,
    [sessions, prefix],
  );
  await runSql(
    url,
    `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
     SELECT $2 || n, k, timestamptz '2025-11-24 10:00Z', 'message', json_build_object('role', 'user', 'content', 'message ' || k || ' of ' || n), 'e' || k
     FROM generate_series(1, $1::int) n, generate_series(1, 2) k`,
    [sessions, prefix],
  );
}

/**
 * Fills a database made by `databaseAtVersion` with two members' `sessions` closed sessions,
 * IDs `<prefix>1`… (the first member's even, the other's odd), in projects `p0` and `p1` by
 * pairs, each a minute older than the last, as the listing's upgrade tests start from.
 */
export async function fillTwoMembers(url: string, prefix: string, owners: readonly [string, string], sessions: number): Promise<void> {
  await runSql(url, "INSERT INTO chatkeep.projects (key, path, host, owner) SELECT 'p' || p, '/p' || p, 'h', r FROM generate_series(0, 1) p, unnest($1::text[]) r", [owners]);
  await runSql(url, 'INSERT INTO chatkeep.ids (id, owner) SELECT $3 || n, ($1::text[])[n % 2 + 1] FROM generate_series(1, $2::int) n', [owners, sessions, prefix]);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, owner, project_key, project_path, title, created_at, updated_at, status, message_count, archived_messages)
     SELECT $3 || n, ($1::text[])[n % 2 + 1], 'p' || (n / 2 % 2), '/p' || (n / 2 % 2), 'Session ' || n,
       timestamptz '2026-11-24 10:00Z' - n * interval '1 minute', timestamptz '2026-11-24 10:00Z' - n * interval '1 minute', 'closed', 1, 0
     FROM generate_series(1, $2::int) n`,
    [owners, sessions, prefix],
  );
}

/**
 * A session's row (`s`) as text, but for the columns that say whether its search rows cover it:
 * schema 33 fills them from its search facts (src/store/postgres/search-coverage.ts), which its
 * own upgrade test checks; every other upgrade leaves the row as it was.
 */
export const SESSION_ROW = "(to_jsonb(s) - 'search_version' - 'search_seq' - 'search_messages')::text";

/**
 * Every session, event (the columns every version has), ID and lock key, digested in a fixed
 * order: equal digests before and after an upgrade, nothing lost or changed.
 */
export const SESSIONS_DIGEST_SQL = `SELECT (SELECT count(*)::int FROM chatkeep.events) AS events,
  (SELECT md5(string_agg(${SESSION_ROW}, '|' ORDER BY s.id)) FROM chatkeep.sessions s) AS session_rows,
  (SELECT md5(string_agg((e.session_id, e.seq, e.ts, e.type, e.payload, e.event_id)::text, '|' ORDER BY e.session_id, e.seq)) FROM chatkeep.events e) AS event_rows,
  (SELECT md5(string_agg(i.id, '|' ORDER BY i.id)) FROM chatkeep.ids i) AS id_rows,
  (SELECT md5(string_agg(k::text, '|' ORDER BY k.session_id)) FROM chatkeep.lock_keys k) AS lock_key_rows`;

/**
 * Every row of the tables a team's listing and search read (sessions, their search rows, IDs,
 * holders, lock keys, shares), digested in a fixed order: equal before and after an upgrade.
 */
export const TEAM_DIGEST_SQL = `SELECT (SELECT count(*)::int FROM chatkeep.sessions) AS sessions,
  (SELECT md5(string_agg(${SESSION_ROW}, '|' ORDER BY s.id)) FROM chatkeep.sessions s) AS session_rows,
  (SELECT md5(string_agg(d::text, '|' ORDER BY d.session_id)) FROM chatkeep.search_sessions d) AS search_rows,
  (SELECT md5(string_agg(m::text, '|' ORDER BY m.session_id, m.n)) FROM chatkeep.search_messages m) AS message_rows,
  (SELECT md5(string_agg(i::text, '|' ORDER BY i.id)) FROM chatkeep.ids i) AS id_rows,
  (SELECT md5(string_agg(h::text, '|' ORDER BY h.session_id)) FROM chatkeep.holders h) AS holder_rows,
  (SELECT md5(string_agg(k::text, '|' ORDER BY k.session_id)) FROM chatkeep.lock_keys k) AS lock_key_rows,
  (SELECT md5(string_agg(sh::text, '|' ORDER BY sh.session_id)) FROM chatkeep.shares sh) AS share_rows`;
