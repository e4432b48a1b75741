import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/session/api/errors.js';
import { storeError } from '../../../src/store/postgres/connect.js';
import { redactUrl, scrub } from '../../../src/store/postgres/url.js';

const URL_WITH_PASSWORD = 'postgres://alice:p%40ss-w0rd!@db.example:5432/chat?sslmode=require';

describe('redactUrl', () => {
  it('hides the password and keeps what tells people where the sessions are', () => {
    expect(redactUrl(URL_WITH_PASSWORD)).toBe('postgres://alice:***@db.example:5432/chat?sslmode=require');
    expect(redactUrl('postgresql://db.example/chat')).toBe('postgresql://db.example/chat');
    expect(redactUrl('postgres://bob@h/db?password=hunter22&application_name=x')).toBe('postgres://bob@h/db?password=***&application_name=x');
  });

  it('shows nothing of what it cannot parse', () => {
    expect(redactUrl('postgres://alice:secret@[bad')).toBe('postgres://…');
    expect(redactUrl('host=x password=secret')).toBe('(a PostgreSQL connection string)');
  });
});

describe('scrub', () => {
  it('removes the password in every form, and the URL as a whole', () => {
    const text = `failed: ${URL_WITH_PASSWORD} / p%40ss-w0rd! / p@ss-w0rd!`;
    const out = scrub(text, URL_WITH_PASSWORD);
    expect(out).not.toContain('p%40ss-w0rd!');
    expect(out).not.toContain('p@ss-w0rd!');
    expect(out).toBe('failed: postgres://alice:***@db.example:5432/chat?sslmode=require / *** / ***');
  });
});

describe('storeError', () => {
  const target = { url: URL_WITH_PASSWORD, location: redactUrl(URL_WITH_PASSWORD), timeouts: { connectTimeoutMs: 1, queryTimeoutMs: 1, leaseMs: 1, idleInTransactionMs: 1, lockWaitMs: 1 } };

  it('turns an unreachable server into StoreUnavailableError, password-free', () => {
    const err = Object.assign(new Error(`connect ECONNREFUSED for ${URL_WITH_PASSWORD}`), { code: 'ECONNREFUSED' });
    const typed = storeError(err, target);
    expect(typed).toBeInstanceOf(StoreUnavailableError);
    expect(typed.message).toMatch(/^Cannot reach the session store at postgres:\/\/alice:\*\*\*@db\.example:5432\/chat/);
    expect(typed.message).not.toContain('w0rd');
  });

  it('scrubs other errors in place, stack included', () => {
    const err = new Error(`syntax error near "p@ss-w0rd!"`);
    const typed = storeError(err, target);
    expect(typed).toBe(err);
    expect(`${typed.message}\n${typed.stack}`).not.toContain('w0rd');
  });

  it('tells a full disk, a statement_timeout and a lock wait given up from a server out of reach', () => {
    const server = (code: string, message: string): Error => Object.assign(new Error(message), { code });
    const full = storeError(server('53100', 'could not extend file "base/16384/16402": No space left on device'), target);
    expect(full).toBeInstanceOf(StoreUnavailableError);
    expect(full.message).toMatch(/^The PostgreSQL server at postgres:\/\/alice:\*\*\*@db\.example:5432\/chat\?sslmode=require is out of disk space \(could not extend file/);
    const slow = storeError(server('57014', 'canceling statement due to statement timeout'), target);
    expect(slow.message).toMatch(/stopped a statement at its statement_timeout \(canceling statement due to statement timeout\)/);
    expect(slow.message).not.toMatch(/Cannot reach/);
    const waited = storeError(server('55P03', 'canceling statement due to lock timeout'), target);
    expect(waited.message).toMatch(/gave up waiting for a lock another connection holds/);
  });
});
