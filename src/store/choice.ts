/**
 * Which store keeps the sessions (docs/design.md §7): `--store`, else `CHATKEEP_STORE`, else the user
 * config's `store`, else the data directory. A PostgreSQL store is named by its URL; `file`
 * names the data directory explicitly (to override the environment or config for one run).
 */
import { existsSync } from 'node:fs';
import { printable, UserError } from '../session/api/errors.js';
import { readConfigFile } from './file/config-files.js';
import { layout } from './file/layout.js';
import { isPostgresUrl, redactUrl } from './postgres/url.js';

export interface StoreChoice {
  /** A `postgres://` URL, or undefined for the data directory. */
  url: string | undefined;
  /** Where the choice came from (a printed command repeats `--store` only for a flag). */
  source: 'flag' | 'env' | 'user' | 'default';
}

/** Reads the choice; a bad value is a one-line UserError naming where it came from (the password never shown). */
export async function chooseStore(flag: string | undefined, env: Record<string, string | undefined>, home: string): Promise<StoreChoice> {
  if (flag !== undefined) return { url: namedOnCommandLine(checked(flag, 'flag', '--store').url, '--store'), source: 'flag' };
  const fromEnv = env.CHATKEEP_STORE?.trim();
  if (fromEnv) return checked(fromEnv, 'env', 'CHATKEEP_STORE');
  const user = await readConfigFile(layout.userConfig(home)).catch(async (err: unknown) => {
    throw (await import('./file/home.js')).storageProblem(home, err);
  });
  if (user.store !== undefined) {
    if (typeof user.store !== 'string') throw bad(String(user.store), `"store" in ${layout.userConfig(home)}`);
    return checked(user.store.trim(), 'user', `"store" in ${layout.userConfig(home)}`);
  }
  return { url: undefined, source: 'default' };
}

function checked(value: string, source: StoreChoice['source'], where: string): StoreChoice {
  if (value === 'file' || value === 'files') return { url: undefined, source };
  if (!isPostgresUrl(value)) throw bad(value, where);
  try {
    new URL(value);
  } catch {
    throw bad(value, where);
  }
  return { url: value, source };
}

function bad(value: string, where: string): UserError {
  const shown = isPostgresUrl(value) ? redactUrl(value) : printable(value);
  return new UserError(
    `Bad store \`${shown}\` (${where}): give a PostgreSQL URL such as postgres://ann@db.example:5432/chatkeep, or file for the data directory.`,
    'E_STORE',
  );
}

/**
 * A PostgreSQL URL given on the command line (`--store`, `sessions copy --to`) must hold no
 * password: a command line is visible to every user of the machine (ps), and chatkeep prints
 * commands that repeat it. node-postgres reads the password from PGPASSWORD or ~/.pgpass.
 */
export function namedOnCommandLine(url: string | undefined, option: string): string | undefined {
  if (url !== undefined && hasPassword(url)) {
    throw new UserError(
      `${option} ${redactUrl(url)} holds a password, which every user of this machine can read in ps: put the URL in CHATKEEP_STORE or the config's "store", or the password in PGPASSWORD or ~/.pgpass.`,
      'E_STORE',
    );
  }
  return url;
}

function hasPassword(url: string): boolean {
  const parsed = new URL(url);
  return parsed.password !== '' || [...parsed.searchParams.keys()].some((k) => /pass/i.test(k));
}

/**
 * Whether there can be sessions to read: a server store, or a data directory that exists (a
 * missing one is simply empty, and reading it must create nothing).
 */
export function sessionsMayExist(where: { home: string; store?: string | undefined }): boolean {
  return where.store !== undefined || existsSync(where.home);
}
