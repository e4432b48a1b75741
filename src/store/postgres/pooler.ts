/**
 * Is there a connection pooler between us and the server (PgBouncer and its kind)? Behind one in
 * transaction or statement mode, nothing a client sets for its session stays with it: an advisory
 * lock taken by one statement stays on a server connection that the next client may get, and
 * outlives the client that took it (two writers, and a lock nobody could let go).
 *
 * A pooler answers the client's startup itself, with a cancel key of its own: the process ID it
 * announces (BackendKeyData) is not that of the server process running our statements, which on
 * a direct connection (or through a plain TCP proxy) it always is. That tells a pooler apart in
 * one query, every time, where probing for shared session state can be fooled by which server
 * connection the pooler happens to hand out. Which mode it pools in cannot be told as surely, so
 * behind any pooler the lock is a lease (take-lock.ts), which needs no session state at all.
 */
import type { Client } from 'pg';

/** True when `client` reaches the server through a pooler. */
export async function isPooled(client: Client): Promise<boolean> {
  // node-postgres keeps the BackendKeyData it was given; its types leave it out.
  const announced = (client as Client & { processID?: number | null }).processID;
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // PostgreSQL itself always announces one: none at all is something in between too.
  return typeof announced !== 'number' || rows[0]?.pid !== announced;
}
