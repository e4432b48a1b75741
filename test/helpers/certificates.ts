/**
 * Certificates for the TLS tests, made by `openssl` in the test: a CA of its own and a server
 * certificate it signed for the names given (elliptic-curve keys: quick to make).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA in `dir` (`NAME.crt`, `NAME.key`). */
export function makeCa(dir: string, name: string): string {
  openssl(dir, ['req', '-x509', ...EC, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`]);
  return join(dir, `${name}.crt`);
}

/**
 * A certificate and key signed by CA `ca` for the subject alternative names `names` (e.g.
 * `DNS:localhost`), as `PREFIX.crt` and `PREFIX.key` in `dir`; and `ca.crt` the signer's.
 */
export function signCertificate(dir: string, ca: string, prefix: string, commonName: string, names: readonly string[]): void {
  writeFileSync(join(dir, `${prefix}.ext`), `subjectAltName=${names.join(',')}\n`);
  openssl(dir, ['req', ...EC, '-keyout', `${prefix}.key`, '-out', `${prefix}.csr`, '-subj', `/CN=${commonName}`]);
  openssl(dir, ['x509', '-req', '-in', `${prefix}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${prefix}.crt`, '-days', '2', '-extfile', `${prefix}.ext`]);
}
