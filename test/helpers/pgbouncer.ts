/**
 * A real PgBouncer in front of the test PostgreSQL (docs/design.md §11): Debian's `pgbouncer`, installed
 * with apt-get when missing (CI runs as root on a fresh machine), run in transaction pooling mode
 * (the most common set-up, and the one that breaks session-level advisory locks). PgBouncer
 * refuses to run as root: as root it runs as `nobody`, from a directory that user can read.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres.js';

const BINARY = '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  /** The server's URL with PgBouncer's port instead (same user, password and database). */
  url(serverUrl: string): string;
  stop(): Promise<void>;
}

/** Installs Debian's pgbouncer when it is missing (refreshing the package lists once if needed). */
export function ensurePgBouncer(): string {
  if (existsSync(BINARY)) return BINARY;
  const install = (): void => void execFileSync('apt-get', ['install', '-y', '-q', 'pgbouncer'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    install();
  }
  if (!existsSync(BINARY)) throw new Error(`apt-get installed pgbouncer, but ${BINARY} is missing`);
  return BINARY;
}

/** Starts PgBouncer in `mode` pooling in front of the server of `serverUrl`; resolves once it accepts connections. */
export async function startPgBouncer(serverUrl: string, mode: 'transaction' | 'statement' | 'session' = 'transaction'): Promise<RunningPgBouncer> {
  const binary = ensurePgBouncer();
  const server = new URL(serverUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chatkeep-pgbouncer-'));
  chmodSync(dir, 0o755);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 500',
      'default_pool_size = 6',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()) : undefined;
  const nogroup = asRoot ? Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) : undefined;
  const child = spawn(binary, [join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(nobody !== undefined && nogroup !== undefined ? { uid: nobody, gid: nogroup } : {}),
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { default: pg } = await import('pg');
  const url = (at: string): string => {
    const u = new URL(at);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`PgBouncer exited (${child.exitCode}):\n${log}`);
    const client = new pg.Client({ connectionString: url(serverUrl) });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (attempt > 100) throw new Error(`PgBouncer did not accept connections: ${String(err)}\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
