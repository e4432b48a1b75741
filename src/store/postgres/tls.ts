/**
 * TLS as libpq does it (docs/design.md §9). node-postgres reads `sslmode` its own way (`require`
 * verifies like `verify-full` unless told otherwise), so chatkeep reads the TLS settings itself,
 * from the URL first and the environment after it, as libpq does, and hands node-postgres a
 * finished `ssl` option and a URL without them:
 *
 * | sslmode | encrypted | certificate checked | host name checked |
 * | --- | --- | --- | --- |
 * | disable, allow | no | – | – |
 * | prefer (the default) | when the server offers it | no | no |
 * | require | yes | only with sslrootcert (then as verify-ca) | no |
 * | verify-ca | yes | yes (sslrootcert needed) | no |
 * | verify-full | yes | yes (sslrootcert, else the system's CAs) | yes |
 *
 * `allow` connects without TLS (libpq would retry with TLS if the server demanded it).
 * `prefer` asks the server first with libpq's own 8-byte SSLRequest (no login), once per process.
 */
import { readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { UserError } from '../../session/api/errors.js';
import { clientCertificate } from './client-cert.js';

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** The TLS parameters libpq takes in a URL, and the environment variables that stand in for them. */
const PARAMS = { sslmode: 'PGSSLMODE', sslrootcert: 'PGSSLROOTCERT', sslcert: 'PGSSLCERT', sslkey: 'PGSSLKEY' } as const;
/** Parameters node-postgres would read on its own; chatkeep has read them. */
const TAKEN = [...Object.keys(PARAMS), 'ssl', 'uselibpqcompat', 'sslpassword'];

export interface TlsPlan {
  mode: SslMode;
  /** `host:port` as named in the URL, for messages. */
  server: string;
  host: string;
  port: number;
  /** The `ssl` option for node-postgres when the connection is encrypted. */
  options: ConnectionOptions;
  /** false: never encrypted; true: always; 'ask': as the server answers (prefer). */
  encrypt: boolean | 'ask';
}

/** The URL without the TLS parameters, and the plan; a bad mode or an unreadable file is one line (exit 2). */
export function planTls(url: string, env: Record<string, string | undefined>): { connectionString: string; tls: TlsPlan } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError('Not a PostgreSQL URL: use postgres://USER@HOST:PORT/DATABASE.', 'E_STORE_URL');
  }
  const get = (name: keyof typeof PARAMS): string | undefined => parsed.searchParams.get(name) ?? (env[PARAMS[name]]?.trim() || undefined);
  const given = get('sslmode') ?? 'prefer';
  if (!(SSL_MODES as readonly string[]).includes(given)) {
    throw new UserError(`Bad sslmode \`${given}\`: give one of ${SSL_MODES.join(', ')} (in the URL as ?sslmode=…, or PGSSLMODE).`, 'E_STORE_TLS');
  }
  const mode = given as SslMode;
  const rootcert = get('sslrootcert');
  const file = (name: 'sslrootcert', path: string | undefined): string | undefined => {
    if (path === undefined || (name === 'sslrootcert' && path === 'system')) return undefined;
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'unreadable';
      throw new UserError(`Cannot read ${name} \`${path}\` (${code}): give a readable PEM file (in the URL as ?${name}=FILE, or ${PARAMS[name]}).`, 'E_STORE_TLS');
    }
  };
  const ca = file('sslrootcert', rootcert);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost';
  const port = Number(parsed.port || 5432);
  // libpq reads the client certificate only for a connection that may be encrypted.
  const { cert, key } = mode === 'disable' || mode === 'allow' ? {} : clientCertificate({ cert: get('sslcert'), key: get('sslkey') }, env.HOME, `${host}:${port}`);
  if (mode === 'verify-ca' && ca === undefined) {
    throw new UserError('sslmode=verify-ca needs the CA that signed the server\'s certificate: give ?sslrootcert=FILE in the URL, or PGSSLROOTCERT.', 'E_STORE_TLS');
  }
  const verify = mode === 'verify-full' || mode === 'verify-ca' || (mode === 'require' && ca !== undefined);
  const options: ConnectionOptions = {
    rejectUnauthorized: verify,
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    // Only verify-full checks that the certificate names the host.
    ...(verify && mode !== 'verify-full' ? { checkServerIdentity: () => undefined } : {}),
  };
  for (const name of TAKEN) parsed.searchParams.delete(name);
  const encrypt = mode === 'disable' || mode === 'allow' ? false : mode === 'prefer' ? 'ask' : true;
  return { connectionString: parsed.toString(), tls: { mode, server: `${host}:${port}`, host, port, options, encrypt } };
}

const asked = new Map<string, Promise<boolean>>();

/**
 * Whether connections are encrypted: for `prefer`, the server's answer to an SSLRequest (one
 * round trip, no login), remembered for the process. A server that cannot be reached rejects
 * with the socket's error (typed by the caller), at once: the connection that would follow
 * would only wait as long again. One that hangs up without answering gets a plain connection.
 */
export function encrypted(plan: TlsPlan, timeoutMs: number): Promise<boolean> {
  if (plan.encrypt !== 'ask') return Promise.resolve(plan.encrypt);
  if (plan.host.startsWith('/')) return Promise.resolve(false); // a Unix socket
  const key = plan.server;
  let answer = asked.get(key);
  if (!answer) {
    answer = offersTls(plan.host, plan.port, timeoutMs).then(
      (yes) => {
        if (yes === undefined) asked.delete(key);
        return yes ?? false;
      },
      (err: unknown) => {
        // Not remembered: the server may come back, with TLS on.
        asked.delete(key);
        throw err;
      },
    );
    asked.set(key, answer);
  }
  return answer;
}

function offersTls(host: string, port: number, timeoutMs: number): Promise<boolean | undefined> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host, port });
    let settled = false;
    const done = (yes: boolean | undefined, err?: Error): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (err) reject(err);
      else resolve(yes);
    };
    socket.setTimeout(timeoutMs, () => done(undefined, Object.assign(new Error(`timeout connecting to ${host}:${port}`), { code: 'ETIMEDOUT' })));
    socket.on('error', (err) => done(undefined, err));
    socket.on('close', () => done(undefined));
    socket.on('connect', () => {
      const request = Buffer.alloc(8);
      request.writeInt32BE(8, 0);
      request.writeInt32BE(80877103, 4); // SSLRequest
      socket.write(request);
    });
    socket.once('data', (data) => done(data[0] === 0x53)); // 'S'
  });
}

/** Node's names for a certificate that did not verify. */
const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/;

/** `err` as one line (exit 2) when it is TLS's doing, else undefined. */
export function tlsFailure(err: unknown, plan: TlsPlan | undefined): UserError | undefined {
  if (!plan) return undefined;
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  if (CERT_CODES.test(code)) {
    const fix =
      plan.options.ca === undefined
        ? 'give the CA that signed it with ?sslrootcert=FILE in the URL (or PGSSLROOTCERT)'
        : 'check that sslrootcert is the CA that signed it' + (plan.mode === 'verify-full' ? ' and that the URL names the host as the certificate does' : '');
    return new UserError(
      `The certificate of the PostgreSQL server at ${plan.server} did not verify under sslmode=${plan.mode} (${message}): ${fix}.`,
      'E_STORE_TLS',
    );
  }
  if (code.startsWith('ERR_SSL_')) {
    // OpenSSL's text is long and multi-line: its reason (`tlsv1 alert unknown ca`) is the part people need.
    const reason = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1]?.trim() ?? code;
    const client = /alert (unknown ca|bad certificate|certificate required|certificate unknown|decrypt error)/i.test(reason);
    return new UserError(
      `TLS with the PostgreSQL server at ${plan.server} failed under sslmode=${plan.mode} (${reason}): ` +
        (client ? 'the server refused the client certificate; give one its CA signed with ?sslcert=FILE&sslkey=FILE (or PGSSLCERT and PGSSLKEY).' : "check the server's TLS settings."),
      'E_STORE_TLS',
    );
  }
  if (/does not support SSL/i.test(message)) {
    return new UserError(
      `The PostgreSQL server at ${plan.server} offers no TLS, which sslmode=${plan.mode} requires: turn ssl on in the server's configuration, or use sslmode=prefer.`,
      'E_STORE_TLS',
    );
  }
  return undefined;
}
