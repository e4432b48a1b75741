/**
 * A team's database of two members (fillTwoMembers: the first owns the even sessions, the other
 * the odd ones) given what a listing row must tell, for the upgrade tests of the listing's
 * functions: `${prefix}125` (the other's) shared with the first; `${prefix}124` held by a holder
 * whose connection is gone (`interrupted`); `${prefix}128` left open (`interrupted`); the team set
 * up; `${prefix}126` held by a connection of its own, as a writer holds one (`open`).
 */
import pg from 'pg';
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { runSql } from './postgres.js';

/** Gives the sessions their statuses; the connection holding `${prefix}126`'s lock, to end once done. */
export async function giveListedStatuses(url: string, prefix: string, [first, other]: readonly [string, string]): Promise<pg.Client> {
  await runSql(url, `UPDATE chatkeep.sessions SET status = 'open' WHERE id = '${prefix}128'`);
  await runSql(url, `INSERT INTO chatkeep.shares (session_id, grantee, owner) VALUES ('${prefix}125', $1, $2)`, [first, other]);
  await runSql(url, `INSERT INTO chatkeep.holders (session_id, pid, host, started_at, backend_pid, epoch) VALUES ('${prefix}124', 1, 'h', now(), 2147483647, 1)`);
  await withPool(url, {}, (pool, target) => setupTeam(pool, target, [first, other], false), { migrate: false });
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
