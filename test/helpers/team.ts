/**
 * People on a team's PostgreSQL database, for tests that drive chatkeep as each of them and meddle
 * with plain SQL on their own logins: a login role per person (roles are the server's, so each
 * name is new), their chatkeep's options, and a chat of one line.
 */
import { expect } from 'vitest';
import { runPiped, type RunOptions } from './pty.js';
import { tmpHome } from './tmp-home.js';
import { runSql } from './postgres.js';

export interface Person {
  role: string;
  url: string;
  options: RunOptions;
}

const tag = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A new login role on the server of `db` and how it runs chatkeep on `db`. */
export async function person(db: string, name: string): Promise<Person> {
  const role = `ck_${name}_${tag()}`;
  const password = `pw-${role}`;
  await runSql(db, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const url = new URL(db);
  url.username = role;
  url.password = password;
  const home = tmpHome();
  return { role, url: url.toString(), options: { home, cwd: home, env: { CHATKEEP_STORE: url.toString() } } };
}

/** chatkeep's options for the store at `db` as the URL's role (the admin's). */
export function as(db: string): RunOptions {
  const home = tmpHome();
  return { home, cwd: home, env: { CHATKEEP_STORE: db } };
}

/** Runs chatkeep; expects exit 0 and no bug; its stdout. */
export async function ok(args: string[], options: RunOptions, input = ''): Promise<string> {
  const r = await runPiped(args, input, options);
  expect(r.stderr, args.join(' ')).not.toMatch(/bug|unexpected failure/i);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A chat of these lines, autosave off; resolves to the session's ID. */
export async function chat(p: Person, lines: string[], args: string[] = []): Promise<string> {
  const r = await runPiped(['--autosave', 'off', ...args], `${lines.join('\n')}\n/quit\n`, p.options);
  expect(r.code, r.stderr).toBe(0);
  return /--session-id (\S+)/.exec(r.stderr)![1]!;
}

/**
 * Two new people on the server of `db` with `count` sessions between them in one project `p` (the
 * project's row each, every ID issued to its owner): `sessions`, SQL of each one's `id`
 * (`PREFIX-n`), `owner` and `n` (and the columns `also` adds), its owners the statement's `$1`.
 * How the upgrade tests fill a database at an older schema before writing its sessions' rows.
 */
export async function twoInOneProject(db: string, prefix: string, count: number, also = ''): Promise<{ a: Person; b: Person; owners: string[]; sessions: string }> {
  const [a, b] = [await person(db, `${prefix}a`), await person(db, `${prefix}b`)];
  const owners = [a.role, b.role];
  await runSql(db, "INSERT INTO chatkeep.projects (key, path, host, owner) SELECT 'p', '/p', 'h', r FROM unnest($1::text[]) r", [owners]);
  const sessions = `SELECT '${prefix}-' || n AS id, ($1::text[])[n % 2 + 1] AS owner, n${also} FROM generate_series(1, ${count}) n`;
  await runSql(db, `INSERT INTO chatkeep.ids (id, owner) SELECT id, owner FROM (${sessions}) x`, [owners]);
  return { a, b, owners, sessions };
}
