/**
 * Is there a pooler between us and the server that shares server connections between clients
 * per transaction or per statement (PgBouncer's `transaction` and `statement` modes)? Behind one,
 * nothing a client sets for its session stays with it: an advisory lock taken by one statement
 * stays on a server connection that the next client may get, and outlives the client that took it
 * (issue 22: two writers, and a lock nobody could let go). So chatkeep asks the connections
 * themselves rather than guessing from the URL:
 *
 * the lock's own connection sets a session-level setting to a random token; it is pooled if its
 * next statement does not see the token (another server connection ran it), or if another client
 * connection (from the store's pool) does see it (it was given the same server connection). On a
 * direct connection, or behind session pooling, each client keeps its own server connection for
 * life, so neither can happen. A token left on a pooled server connection is harmless.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';

/** Reads a setting on another client connection than the lock's (one of the store's pool). */
export type ReadElsewhere = (sql: string, params: unknown[]) => Promise<{ v: string | null }[]>;

const SETTING = 'chatkeep.pool_probe';
/** Rounds of the probe: one almost always tells; more cover a pool handing out connections first-in first-out. */
const ROUNDS = 3;

/** Answers found per URL: a pooler does not change its mode under a running process. */
const known = new Map<string, Promise<boolean>>();

/** True when `client`'s statements may run on server connections other clients share. */
export function isPooled(url: string, client: Client, elsewhere: ReadElsewhere): Promise<boolean> {
  let answer = known.get(url);
  if (!answer) {
    answer = probe(client, elsewhere);
    known.set(url, answer);
    // A probe that failed (a connection dropped) tells nothing: ask again next time.
    answer.catch(() => known.delete(url));
  }
  return answer;
}

async function probe(client: Client, elsewhere: ReadElsewhere): Promise<boolean> {
  const read = `SELECT current_setting('${SETTING}', true) AS v`;
  for (let round = 0; round < ROUNDS; round++) {
    const token = randomBytes(8).toString('hex');
    await client.query(`SELECT set_config('${SETTING}', $1, false)`, [token]);
    if ((await client.query<{ v: string | null }>(read)).rows[0]?.v !== token) return true;
    if ((await elsewhere(read, []))[0]?.v === token) return true;
  }
  return false;
}
