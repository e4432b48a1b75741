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
