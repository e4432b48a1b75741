/**
 * TLS as libpq does it (docs/design.md §9), against a real server with ssl=on and a CA made by
 * openssl in the test: each sslmode with libpq's meaning, the URL's parameters and the PG*
 * variables, and a certificate that does not verify told in one line naming the host and the
 * mode (exit 2, never "This is a bug").
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { makeCa, signCertificate } from '../helpers/certificates.js';
import { TEST_PASSWORD, startPostgres, type RunningPostgres } from '../helpers/postgres.js';

let server: RunningPostgres;
let certs: string;
let port: string;

beforeAll(async () => {
  certs = mkdtempSync(join(tmpdir(), 'chatkeep-tls-'));
  makeCa(certs, 'ca');
  makeCa(certs, 'stranger');
  // The server's certificate names `localhost` only: 127.0.0.1 passes verify-ca, not verify-full.
  signCertificate(certs, 'ca', 'server', 'localhost', ['DNS:localhost']);
  signCertificate(certs, 'ca', 'client', 'postgres', ['DNS:client']);
  signCertificate(certs, 'stranger', 'forged', 'postgres', ['DNS:client']);
  server = await startPostgres(undefined, { sslDir: certs });
  port = new URL(server.url).port;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (certs) rmSync(certs, { recursive: true, force: true });
});

/** `chatkeep db status --json` with this URL query and environment. */
async function status(host: string, query: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const url = `postgres://postgres:${TEST_PASSWORD}@${host}:${port}/postgres${query}`;
  return runPiped(['db', 'status', '--json'], '', { home: tmpHome(), cwd: tmpHome(), env: { CHATKEEP_STORE: url, ...env } });
}

function tls(result: { code: number; stdout: string; stderr: string }): string {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { tls: string }).tls;
}

/** The one line a refusal prints: names the host and the mode, no stack, no "bug", no password. */
function refusal(result: { code: number; stdout: string; stderr: string }, host: string, mode: string): string {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`${host}:${port}`);
  expect(lines[0]).toContain(`sslmode=${mode}`);
  expect(result.stderr).not.toMatch(/bug|unexpected failure/i);
  expect(result.stderr).not.toContain(TEST_PASSWORD);
  return lines[0]!;
}

describe('TLS with libpq meanings', () => {
  it('require encrypts without checking the certificate (a self-signed server is fine), as libpq does', async () => {
    expect(tls(await status('127.0.0.1', '?sslmode=require'))).toBe('encrypted (sslmode=require)');
    // prefer (the default) encrypts when the server offers TLS; disable never does.
    expect(tls(await status('127.0.0.1', ''))).toBe('encrypted (sslmode=prefer)');
    expect(tls(await status('127.0.0.1', '?sslmode=disable'))).toBe('not encrypted (sslmode=disable)');
  });

  it('verify-ca checks the CA but not the name; verify-full checks both', async () => {
    const ca = `sslrootcert=${join(certs, 'ca.crt')}`;
    expect(tls(await status('127.0.0.1', `?sslmode=verify-ca&${ca}`))).toBe('encrypted (sslmode=verify-ca)');
    expect(tls(await status('localhost', `?sslmode=verify-full&${ca}`))).toBe('encrypted (sslmode=verify-full)');
    // The certificate names localhost, not 127.0.0.1.
    const line = refusal(await status('127.0.0.1', `?sslmode=verify-full&${ca}`), '127.0.0.1', 'verify-full');
    expect(line).toMatch(/did not verify/);
    // require with a root certificate checks it (libpq: as verify-ca).
    refusal(await status('127.0.0.1', `?sslmode=require&sslrootcert=${join(certs, 'stranger.crt')}`), '127.0.0.1', 'require');
  });

  it('a CA that did not sign the server is one line naming the host and the mode', async () => {
    const line = refusal(await status('localhost', `?sslmode=verify-full&sslrootcert=${join(certs, 'stranger.crt')}`), 'localhost', 'verify-full');
    expect(line).toMatch(/^chatkeep: The certificate of the PostgreSQL server at localhost:\d+ did not verify under sslmode=verify-full/);
    // Without any CA given, the system's CAs do not know this one.
    refusal(await status('localhost', '?sslmode=verify-full'), 'localhost', 'verify-full');
  });

  it('honours PGSSLMODE, PGSSLROOTCERT, PGSSLCERT and PGSSLKEY, the URL winning over them', async () => {
    const stranger = { PGSSLMODE: 'verify-full', PGSSLROOTCERT: join(certs, 'stranger.crt') };
    refusal(await status('localhost', '', stranger), 'localhost', 'verify-full');
    expect(tls(await status('localhost', '', { ...stranger, PGSSLROOTCERT: join(certs, 'ca.crt') }))).toBe('encrypted (sslmode=verify-full)');
    expect(tls(await status('localhost', '?sslmode=require', { PGSSLMODE: 'verify-full' }))).toBe('encrypted (sslmode=require)');
    // As libpq: a root certificate from the environment makes require check it (as verify-ca).
    refusal(await status('localhost', '?sslmode=require', stranger), 'localhost', 'require');
    // The server checks a client certificate it is given against its CA: ours passes, a forged one does not.
    const client = { PGSSLMODE: 'require', PGSSLCERT: join(certs, 'client.crt'), PGSSLKEY: join(certs, 'client.key') };
    expect(tls(await status('127.0.0.1', '', client))).toBe('encrypted (sslmode=require)');
    const forged = await status('127.0.0.1', `?sslcert=${join(certs, 'forged.crt')}&sslkey=${join(certs, 'forged.key')}`, { PGSSLMODE: 'require' });
    expect(refusal(forged, '127.0.0.1', 'require')).toMatch(/the server refused the client certificate/);
  });

  it('bad TLS settings are one line each, exit 2', async () => {
    const bad = await status('127.0.0.1', '?sslmode=sometimes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chatkeep: Bad sslmode `sometimes`: give one of disable, allow, prefer, require, verify-ca, verify-full/);
    const missing = await status('127.0.0.1', '?sslmode=verify-ca');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^chatkeep: sslmode=verify-ca needs the CA/);
    const unreadable = await status('127.0.0.1', '', { PGSSLMODE: 'require', PGSSLROOTCERT: join(certs, 'nowhere.crt') });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/^chatkeep: Cannot read sslrootcert `.*nowhere\.crt` \(ENOENT\)/);
  });

  it("a client certificate or key that cannot be used is one line naming the file in libpq's words, exit 2; libpq's default files are read", async () => {
    const home = mkdtempSync(join(tmpdir(), 'chatkeep-pghome-'));
    writeFileSync(join(certs, 'bad.crt'), 'not a certificate\n');
    writeFileSync(join(certs, 'bad.key'), '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
    const line = async (query: string, env: Record<string, string> = {}): Promise<string> => {
      const r = await status('127.0.0.1', query, { PGSSLMODE: 'require', HOME: home, ...env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/bug|unexpected failure/i);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      return lines[0]!;
    };
    const at = `The client certificate for the PostgreSQL server at 127.0.0.1:${port} cannot be used:`;
    expect(await line(`?sslcert=${join(certs, 'bad.crt')}&sslkey=${join(certs, 'client.key')}`)).toContain(`${at} could not read certificate file "${join(certs, 'bad.crt')}": `);
    expect(await line(`?sslcert=${join(certs, 'client.crt')}&sslkey=${join(certs, 'bad.key')}`)).toContain(`${at} could not load private key file "${join(certs, 'bad.key')}": `);
    expect(await line(`?sslcert=${join(certs, 'client.crt')}&sslkey=${join(certs, 'forged.key')}`)).toContain(
      `${at} certificate does not match private key file "${join(certs, 'forged.key')}": key values mismatch`,
    );
    // sslcert without sslkey: libpq looks for its default key, and says it is missing.
    expect(await line(`?sslcert=${join(certs, 'client.crt')}`)).toContain(`${at} certificate present, but not private key file "${join(home, '.postgresql', 'postgresql.key')}"`);

    // libpq's default files: ~/.postgresql/postgresql.crt and .key, used when nothing else is named.
    mkdirSync(join(home, '.postgresql'));
    copyFileSync(join(certs, 'forged.crt'), join(home, '.postgresql', 'postgresql.crt'));
    copyFileSync(join(certs, 'forged.key'), join(home, '.postgresql', 'postgresql.key'));
    expect(await line('')).toMatch(/the server refused the client certificate/);
    copyFileSync(join(certs, 'client.crt'), join(home, '.postgresql', 'postgresql.crt'));
    copyFileSync(join(certs, 'client.key'), join(home, '.postgresql', 'postgresql.key'));
    expect(tls(await status('127.0.0.1', '', { PGSSLMODE: 'require', HOME: home }))).toBe('encrypted (sslmode=require)');
    rmSync(home, { recursive: true, force: true });
  });

  it('require against a server without TLS says the server offers none (exit 2)', async () => {
    const plain = new URL(inject('postgresAdminUrl'));
    plain.searchParams.set('sslmode', 'require');
    const result = await runPiped(['db', 'status'], '', { home: tmpHome(), cwd: tmpHome(), env: { CHATKEEP_STORE: plain.toString() } });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`offers no TLS, which sslmode=require requires`);
  });
});
