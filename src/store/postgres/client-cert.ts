/**
 * The client certificate, read as libpq reads it: `sslcert` and `sslkey` from the URL or
 * PGSSLCERT and PGSSLKEY, else libpq's own files `~/.postgresql/postgresql.crt` and `.key`. A
 * certificate file that is not there means no client certificate (libpq's rule); one that is
 * there needs its key. Everything is checked before any connection is tried, and what is wrong
 * is one line naming the file, in libpq's words (never a TLS handshake that hangs, or a bug).
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../session/api/errors.js';

export interface ClientCertificate {
  cert?: string;
  key?: string;
}

/** What is wrong, as libpq says it, and how to give it (one line, exit 2). */
function refused(what: string, server: string): UserError {
  return new UserError(
    `The client certificate for the PostgreSQL server at ${server} cannot be used: ${what}. Give a PEM certificate and its key with ?sslcert=FILE&sslkey=FILE in the URL (or PGSSLCERT and PGSSLKEY).`,
    'E_STORE_TLS',
  );
}

/** The text of OpenSSL's reason (`error:1E08010C:DECODER routines::unsupported` → `unsupported`). */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^error:[0-9A-F]+:[^:]*:[^:]*:/i, '').trim() || message;
}

/** The file at `path`, or undefined when there is none (ENOENT: libpq then goes without). */
function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT' || (err as { code?: string }).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * The client certificate and key for `server` (host:port): `certPath`/`keyPath` as given (URL or
 * environment), else libpq's defaults under `home`. A given certificate that cannot be read is the
 * caller's to report (it names its parameter); everything else wrong is reported here.
 */
export function clientCertificate(given: { cert?: string; key?: string }, home: string | undefined, server: string): ClientCertificate {
  const certPath = given.cert ?? (home !== undefined ? join(home, '.postgresql', 'postgresql.crt') : undefined);
  if (certPath === undefined) return {};
  let certText: string | undefined;
  try {
    certText = given.cert !== undefined ? readFileSync(certPath, 'utf8') : readIfThere(certPath);
  } catch (err) {
    throw refused(`could not open certificate file "${certPath}": ${(err as { code?: string }).code ?? reasonOf(err)}`, server);
  }
  if (certText === undefined) return {};
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certText);
  } catch (err) {
    throw refused(`could not read certificate file "${certPath}": ${reasonOf(err)}`, server);
  }
  const keyPath = given.key ?? (home !== undefined ? join(home, '.postgresql', 'postgresql.key') : undefined);
  const keyText = keyPath !== undefined ? readIfThereOrRefuse(keyPath, server) : undefined;
  if (keyPath === undefined || keyText === undefined) throw refused(`certificate present, but not private key file "${keyPath ?? '~/.postgresql/postgresql.key'}"`, server);
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch (err) {
    throw refused(`could not load private key file "${keyPath}": ${reasonOf(err)}`, server);
  }
  if (!cert.checkPrivateKey(key)) throw refused(`certificate does not match private key file "${keyPath}": key values mismatch`, server);
  return { cert: certText, key: keyText };
}

function readIfThereOrRefuse(path: string, server: string): string | undefined {
  try {
    return readIfThere(path);
  } catch (err) {
    throw refused(`could not load private key file "${path}": ${(err as { code?: string }).code ?? reasonOf(err)}`, server);
  }
}
