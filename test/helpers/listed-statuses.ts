/**
 * A team's database of two members (fillTwoMembers: the first owns the even sessions, the other
 * the odd ones) given what a listing row must tell, for the upgrade tests of the listing's
 * functions: `${prefix}125` (the other's) shared with the first; `${prefix}124` held by a holder
 * whose connection is gone (`interrupted`); `${prefix}128` left open (`interrupted`); the team set
 * up; `${prefix}126` held by a connection of its own, as a writer holds one (`open`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from './postgres.js';
import { databaseBefore, fillTwoMembers, schemaVersion, TEAM_DIGEST_SQL } from './schema-at.js';
import { serverFunctions } from './server-function.js';
import { person, type Person } from './team.js';

/** Gives the sessions their statuses, as rows of the schema before (no team set up yet). */
async function giveListedStatuses(url: string, prefix: string, [first, other]: readonly [string, string]): Promise<void> {
  await runSql(url, `UPDATE chatkeep.sessions SET status = 'open' WHERE id = '${prefix}128'`);
  await runSql(url, `INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('${prefix}125', $1, $2)`, [first, other]);
  await runSql(url, `INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch) VALUES ('${prefix}124', 1, 'h', now(), 2147483647, 1)`);
}

/** A connection holding `${prefix}126`'s lock, as a writer holds one, to end once done. */
async function holdLock(url: string, prefix: string): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query(`SELECT pg_advisory_lock($1, key) FROM chatkeep.lock_keys WHERE session_id = '${prefix}126'`, [LOCK_SPACE]);
  } catch (err) {
    await holder.end();
    throw err;
  }
  return holder;
}

/** What a listing function's upgrade test runs in: the database, its two members, a directory for the stores. */
export interface TwoMembersListed {
  url: string;
  a: Person;
  b: Person;
  cwd: string;
}

/**
 * A listing function's upgrade test: a team's database of `sessions` sessions at the schema before
 * `migration` (without the server's function `chatkeep.${fn}`), two members `${p}u` and `${p}v` (their sessions `${p}u-1`…), `searchRows` (SQL, as
 * the snapshots would have written them) run, the statuses given, then the team set up, which
 * brings the schema up to this build's: every row kept, checked here. Then `run` (the sessions'
 * rows by the statements the build before sent, beside this build's functions), and the holder's
 * connection and the directory gone whatever it did.
 */
export async function withListedStatuses(migration: string, fn: string, p: string, sessions: number, searchRows: readonly string[], run: (t: TwoMembersListed) => Promise<void>): Promise<void> {
  const url = await databaseBefore(migration);
  const version = await schemaVersion(url);
  expect(await serverFunctions(url, fn)).toEqual([]);
  const [a, b] = [await person(url, `${p}u`), await person(url, `${p}v`)];
  await fillTwoMembers(url, `${p}u-`, [a.role, b.role], sessions);
  for (const sql of searchRows) await runSql(url, sql);
  await giveListedStatuses(url, `${p}u-`, [a.role, b.role]);
  // The team's setup brings the schema up to this build's (team-setup.ts): the upgrade under test, every row kept.
  const digest = await runSql(url, TEAM_DIGEST_SQL);
  await withPool(url, {}, (pool, target) => setupTeam(pool, target, [a.role, b.role], false), { migrate: false });
  expect(await schemaVersion(url)).toBeGreaterThan(version);
  expect(await runSql(url, TEAM_DIGEST_SQL)).toEqual(digest);
  const holder = await holdLock(url, `${p}u-`);
  const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-listed-upgrade-'));
  try {
    await run({ url, a, b, cwd });
  } finally {
    await holder.end();
    await rm(cwd, { recursive: true, force: true });
  }
}
