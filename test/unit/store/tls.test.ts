import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTls } from '../../../src/store/postgres/tls.js';
import { tmpHome } from '../../helpers/tmp-home.js';

describe('TLS settings read as libpq reads them', () => {
  it('defaults to prefer: encrypted when the server offers it, nothing checked', () => {
    const { tls, connectionString } = planTls('postgres://ann@db.example:6543/team', {});
    expect(tls).toMatchObject({ mode: 'prefer', encrypt: 'ask', server: 'db.example:6543', options: { rejectUnauthorized: false } });
    expect(connectionString).toBe('postgres://ann@db.example:6543/team');
  });

  it('gives each mode its libpq meaning, and takes the TLS parameters out of the URL node-postgres reads', () => {
    const dir = tmpHome();
    const ca = join(dir, 'ca.crt');
    writeFileSync(ca, 'PEM');
    const plan = (query: string, env: Record<string, string> = {}) => planTls(`postgres://ann@db.example/team${query}`, env);
    expect(plan('?sslmode=disable').tls.encrypt).toBe(false);
    expect(plan('?sslmode=require').tls).toMatchObject({ encrypt: true, options: { rejectUnauthorized: false } });
    // require with a root certificate verifies it, as verify-ca does (the name is not checked).
    const requireCa = plan(`?sslmode=require&sslrootcert=${ca}`).tls.options;
    expect(requireCa).toMatchObject({ rejectUnauthorized: true, ca: 'PEM' });
    expect(requireCa.checkServerIdentity?.('db.example', {} as never)).toBeUndefined();
    expect(plan(`?sslmode=verify-full&sslrootcert=${ca}`).tls.options).toEqual({ rejectUnauthorized: true, ca: 'PEM' });
    expect(plan(`?sslmode=verify-full&sslrootcert=${ca}&application_name=x`).connectionString).toBe('postgres://ann@db.example/team?application_name=x');
    // The URL wins over the environment; the environment fills in what the URL leaves out.
    expect(plan('?sslmode=require', { PGSSLMODE: 'verify-full' }).tls.mode).toBe('require');
    expect(plan('', { PGSSLMODE: 'verify-ca', PGSSLROOTCERT: ca }).tls).toMatchObject({ mode: 'verify-ca', options: { ca: 'PEM' } });
    expect(plan('?sslrootcert=system', { PGSSLMODE: 'verify-full' }).tls.options).toEqual({ rejectUnauthorized: true });
  });

  it('refuses a bad mode, a missing CA for verify-ca and an unreadable file in one line each', () => {
    expect(() => planTls('postgres://db/x?sslmode=on', {})).toThrow(/^Bad sslmode `on`: give one of disable, allow, prefer, require, verify-ca, verify-full/);
    expect(() => planTls('postgres://db/x?sslmode=verify-ca', {})).toThrow(/^sslmode=verify-ca needs the CA/);
    expect(() => planTls('postgres://db/x', { PGSSLCERT: '/nowhere/client.crt' })).toThrow(/cannot be used: could not open certificate file "\/nowhere\/client.crt": ENOENT\./);
  });
});
