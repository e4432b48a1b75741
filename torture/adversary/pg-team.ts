/**
 * A team for the PostgreSQL trials of the part `adversary`: a fresh database set up by its admin,
 * an owner (`ann`), a writable grantee (`bob`), a read-only grantee (`cat`) and a member it is
 * not shared with (`dan`), and ann's session, which bob has added to through chatkeep.
 */
import { createDatabase, runSql } from '../../test/helpers/postgres.js';
import { freshDir, runPiped, type RunOptions } from '../proc.js';

export interface Member {
  role: string;
  url: string;
  run: RunOptions;
}

export interface Team {
  db: string;
  ann: Member;
  bob: Member;
  cat: Member;
  dan: Member;
  /** ann's session, shared with bob for writing and with cat read-only. */
  id: string;
}

/** Runs chatkeep; its failure as text (undefined: exit 0). */
export async function attemptCli(args: string[], input: string, run: RunOptions): Promise<string | undefined> {
  const r = await runPiped(args, input, { ...run, timeout: 60_000 });
  return r.code === 0 ? undefined : `chatkeep ${args.join(' ')}: exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`;
}

/** A chat of one line (autosave off) as `m`; its session's ID, or the failure. */
export async function chatLine(m: Member, line: string, args: string[] = []): Promise<{ id?: string; failure?: string }> {
  const r = await runPiped(['--autosave', 'off', ...args], `${line}\n/quit\n`, { ...m.run, timeout: 60_000 });
  const id = /--session-id (\S+)/.exec(r.stderr)?.[1];
  return r.code === 0 && id ? { id } : { failure: `chat as ${m.role}: exit ${r.code}: ${r.stderr.trim().split('\n')[0]}` };
}

/** Sets the team up on a new database of the server at `adminUrl`; throws what failed. */
export async function makeTeam(root: string, adminUrl: string, tag: string): Promise<Team> {
  const db = await createDatabase(adminUrl);
  const cwd = freshDir(root, 'project-');
  const member = async (name: string): Promise<Member> => {
    const role = `ck_${name}_${tag}`;
    await runSql(db, `CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
    const url = new URL(db);
    url.username = role;
    url.password = `pw-${role}`;
    return { role, url: url.toString(), run: { home: freshDir(root, `${name}-`), cwd, env: { CHATKEEP_STORE: url.toString() } } };
  };
  const [ann, bob, cat, dan] = [await member('ann'), await member('bob'), await member('cat'), await member('dan')];
  const admin: RunOptions = { home: freshDir(root, 'admin-'), cwd, env: { CHATKEEP_STORE: db } };
  const fail = (why: string | undefined): void => {
    if (why) throw new Error(why);
  };
  fail(await attemptCli(['db', 'setup', ...[ann, bob, cat, dan].flatMap((m) => ['--member', m.role])], '', admin));
  const made = await chatLine(ann, 'the plan');
  fail(made.failure);
  const id = made.id!;
  fail(await attemptCli(['sessions', 'share', id, '--with', bob.role, '--write'], '', ann.run));
  fail(await attemptCli(['sessions', 'share', id, '--with', cat.role], '', ann.run));
  fail((await chatLine(bob, 'bob adds a step', ['--session-id', id])).failure);
  return { db, ann, bob, cat, dan, id };
}
