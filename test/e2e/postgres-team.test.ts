/**
 * A team on one PostgreSQL server (docs/design.md §9), driven as its admin and its members drive
 * it: `chatkeep db setup` (and `--print`), `db status`, each person seeing only their own
 * sessions, sharing read-only and writable, a one-person database handed over to a team, and a
 * missing privilege told in one line (exit 2), never as a bug.
 */
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { TEST_PASSWORD, createDatabase, runSql } from '../helpers/postgres.js';
import { startProxy } from '../helpers/tcp-proxy.js';

interface Person {
  role: string;
  url: string;
  options: RunOptions;
}

const tag = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A login role on the test server (roles are the server's, so each name is new) and how it runs chatkeep on `db`. */
async function person(db: string, name: string, extra = ''): Promise<Person> {
  const role = `ck_${name}_${tag()}`;
  const password = `pw-${role}`;
  await runSql(db, `CREATE ROLE ${role} LOGIN PASSWORD '${password}' ${extra}`);
  const url = new URL(db);
  url.username = role;
  url.password = password;
  const home = tmpHome();
  return { role, url: url.toString(), options: { home, cwd: home, env: { CHATKEEP_STORE: url.toString() } } };
}

function as(db: string): RunOptions {
  const home = tmpHome();
  return { home, cwd: home, env: { CHATKEEP_STORE: db } };
}

async function ok(args: string[], options: RunOptions, input = ''): Promise<string> {
  const r = await runPiped(args, input, options);
  expect(r.stderr, args.join(' ')).not.toMatch(/bug|unexpected failure/i);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The one line (exit 2) a refusal prints. */
async function refused(args: string[], options: RunOptions, input = ''): Promise<string> {
  const r = await runPiped(args, input, options);
  expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(2);
  expect(r.stderr).not.toMatch(/bug|unexpected failure/i);
  expect(r.stderr).not.toContain(TEST_PASSWORD);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!;
}

/** A chat of one message; resolves to the session's ID. */
async function chat(p: Person, text: string): Promise<string> {
  const r = await runPiped(['--autosave', 'off'], `${text}\n/quit\n`, p.options);
  expect(r.code, r.stderr).toBe(0);
  return /--session-id (\S+)/.exec(r.stderr)![1]!;
}

const ids = (json: string): string[] => (JSON.parse(json) as { id: string }[]).map((r) => r.id);

describe('a team on one PostgreSQL server', () => {
  it('tells a second person on a one-person database which privilege is missing and what the admin should run (exit 2)', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    await chat({ role: 'postgres', url: db, options: as(db) }, 'the first person');
    const second = await person(db, 'second');
    for (const args of [['sessions', 'list'], ['--autosave', 'off'], ['sessions', 'search', 'x']]) {
      const line = await refused(args, second.options, 'hello\n');
      expect(line).toMatch(new RegExp(`^chatkeep: Role ${second.role} lacks a privilege on the session store at postgres://${second.role}:\\*\\*\\*@.* \\(permission denied for schema chatkeep\\)\\. The admin should run chatkeep db setup --member ${second.role}$`));
    }
    // On an empty database it cannot create the schema either: the same advice.
    const empty = await createDatabase(inject('postgresAdminUrl'));
    const elsewhere = { ...second.options, env: { CHATKEEP_STORE: second.url.replace(new URL(db).pathname, new URL(empty).pathname) } };
    expect(await refused(['sessions', 'list'], elsewhere)).toMatch(/\(permission denied for database ck_\w+\)\. The admin should run chatkeep db setup --member/);
    // Nor may a member set up the team.
    expect(await refused(['db', 'setup', '--member', second.role], second.options)).toMatch(
      new RegExp(`^chatkeep: db setup needs a role that may create roles and schemas .* and ${second.role} may not \\(permission denied`),
    );
  });

  it('is set up by the admin in one command: --print changes nothing, a second run says so, db status shows it', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const ann = await person(db, 'ann');
    const bob = await person(db, 'bob');
    const admin = as(db);
    // --print shows the SQL and changes nothing.
    const script = await ok(['db', 'setup', '--member', ann.role, '--print'], admin);
    expect(script).toMatch(/^-- chatkeep db setup for ck_\w+ \(schema version \d+\)/);
    expect(script).toContain('CREATE SCHEMA chatkeep AUTHORIZATION "chatkeep_owner";');
    expect(script).toContain('FORCE ROW LEVEL SECURITY');
    expect(script).toContain(`GRANT "chatkeep_team" TO "${ann.role}";`);
    expect(await runSql(db, "SELECT 1 FROM pg_namespace WHERE nspname = 'chatkeep'")).toEqual([]);

    const done = await ok(['db', 'setup', '--member', ann.role, '--member', bob.role], admin);
    expect(done).toContain(`Members of chatkeep_team: ${[ann.role, bob.role].sort().map((r) => `${r} (added)`).join(', ')}.`);
    expect(done.trimEnd().split('\n').pop()).toBe('chatkeep db status');
    // Run again: nothing new, and it says so.
    expect(await ok(['db', 'setup', '--member', bob.role], admin)).toContain(`${bob.role} (already a member)`);

    const status = JSON.parse(await ok(['db', 'status', '--json'], bob.options)) as Record<string, unknown> & { tables: { table: string; forced: boolean; policies: string[] }[] };
    expect(status).toMatchObject({ role: bob.role, bypassesRowSecurity: false, teamMember: true, schemaOwner: 'chatkeep_owner', unsecured: [], pooled: { verdict: 'no' } });
    expect(status.schemaVersion).toBe(status.expectedVersion);
    expect(status.tables.find((t) => t.table === 'sessions')).toMatchObject({ forced: true, policies: ['sessions_by_chatkeep', 'sessions_delete', 'sessions_insert', 'sessions_read', 'sessions_update'] });
    // A member's chatkeep that needs a newer schema than the admin last set up says whom to ask.
    await runSql(db, 'DELETE FROM chatkeep.migrations WHERE version = (SELECT max(version) FROM chatkeep.migrations)');
    expect(await refused(['sessions', 'list'], bob.options)).toMatch(
      /^chatkeep: The chatkeep schema at postgres:\/\/ck_bob_\w+:\*\*\*@\S+ is at version \d+ and this chatkeep needs \d+, which only its owner can bring about\. The admin should run chatkeep db setup$/,
    );
    await runSql(db, "INSERT INTO chatkeep.migrations (version, tool_version) VALUES ($1, 'test')", [status.expectedVersion]);
    const text = await ok(['db', 'status'], admin);
    expect(text).toMatch(/^Store {4}postgres:\/\/postgres:\*\*\*@.*: schema chatkeep version \d+, owned by chatkeep_owner$/m);
    expect(text).toMatch(/^Role {5}postgres \(a superuser or BYPASSRLS role: row-level security does not apply to it, it sees every row\)$/m);
    expect(text).toMatch(/^ {2}sessions +forced · sessions_by_chatkeep, sessions_delete, sessions_insert, sessions_read, sessions_update$/m);
  });

  it('lets each member see and change only their own sessions, in chatkeep and in plain SQL', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob] = await Promise.all([person(db, 'ann'), person(db, 'bob')]);
    await ok(['db', 'setup', '--member', ann.role, '--member', bob.role], as(db));
    // bob's first: IDs are issued once across roles, so ann's cannot be a prefix of his (a prefix finds one's own sessions).
    const bobId = await chat(bob, 'bob writes the tests');
    const annId = await chat(ann, 'ann plans the roadmap');
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], ann.options))).toEqual([annId]);
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], bob.options))).toEqual([bobId]);
    const found = JSON.parse(await ok(['sessions', 'search', 'roadmap', '--all', '--json'], bob.options)) as { results: unknown[] };
    expect(found.results).toEqual([]);
    for (const args of [['sessions', 'show', annId], ['sessions', 'export', annId], ['sessions', 'rm', annId], ['--session-id', annId], ['sessions', 'share', annId, '--team']]) {
      expect(await refused(args, bob.options, 'mine now\n')).toBe(`chatkeep: No session \`${annId}\`. List sessions with: chatkeep sessions list --all`);
    }
    // Plain SQL on bob's own connection: ann's rows are not there to read or change.
    expect(await runSql(bob.url, 'SELECT id FROM chatkeep.sessions')).toEqual([{ id: bobId }]);
    expect(await runSql(bob.url, 'SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1', [annId])).toEqual([{ n: 0 }]);
    expect(await runSql(bob.url, "UPDATE chatkeep.sessions SET title = 'taken' WHERE id = $1 RETURNING id", [annId])).toEqual([]);
    await expect(runSql(bob.url, 'ALTER TABLE chatkeep.sessions DISABLE ROW LEVEL SECURITY')).rejects.toThrow(/must be owner/);
    expect(JSON.parse(await ok(['sessions', 'show', annId, '--json'], ann.options)).messages[0].content).toBe('ann plans the roadmap');
  });

  // Three people in one project (the same directory: shared sessions are listed where one works),
  // and ann's session. Each sharing test has its own: a journey of 25 runs of chatkeep in one test
  // came within a few seconds of the test's time limit on a loaded machine.
  async function annSharesAPlan(): Promise<{ ann: Person; bob: Person; cat: Person; id: string }> {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob, cat] = await Promise.all([person(db, 'ann'), person(db, 'bob'), person(db, 'cat')]);
    await ok(['db', 'setup', '--member', ann.role, '--member', bob.role, '--member', cat.role], as(db));
    bob.options.cwd = cat.options.cwd = ann.options.cwd;
    return { ann, bob, cat, id: await chat(ann, 'the shared plan') };
  }

  it('shares a session read-only with a role: shows whose it is; the grantee reads it and forks it, nothing more', async () => {
    const { ann, bob, cat, id } = await annSharesAPlan();
    expect(await ok(['sessions', 'share', id, '--with', bob.role], ann.options)).toBe(`Shared ${id} with ${bob.role} (read-only). Now shared with: ${bob.role} (read-only).\n`);
    const listed = JSON.parse(await ok(['sessions', 'list', '--json'], bob.options)) as { id: string; owner?: string }[];
    expect(listed).toMatchObject([{ id, owner: ann.role }]);
    expect(await ok(['sessions', 'list'], bob.options)).toContain(`(${ann.role}'s)`);
    expect(await ok(['sessions', 'show', id], bob.options)).toContain(`\n  ${ann.role}'s session, shared with you (read-only)\n`);
    expect(await ok(['sessions', 'show', id], ann.options)).toContain(`\n  shared with: ${bob.role} (read-only)\n`);
    expect(ids(await ok(['sessions', 'list', '--json'], cat.options))).toEqual([]);
    // Read-only: no resume, no trash, no sharing on; a fork of one's own instead.
    expect(await refused(['--session-id', id], bob.options, 'mine now\n')).toBe(
      `chatkeep: Session ${id} belongs to ${ann.role}, who shared it with you read-only. Continue in a copy of your own with chatkeep --fork ${id}`,
    );
    expect(await refused(['sessions', 'share', id, '--team'], bob.options)).toBe(`chatkeep: Session ${id} belongs to ${ann.role}: only ${ann.role} can share it or stop sharing it.`);
    await refused(['sessions', 'rm', id], bob.options);
    const fork = await runPiped(['--fork', id, '--autosave', 'off'], 'my own continuation\n/quit\n', bob.options);
    expect(fork.code, fork.stderr).toBe(0);
    expect(JSON.parse(await ok(['sessions', 'show', id, '--json'], ann.options)).messages).toHaveLength(2);
  });

  it('shares a session writable and with the team, and stops sharing', async () => {
    const { ann, bob, cat, id } = await annSharesAPlan();
    // Writable: bob adds to it, and ann sees what he added.
    await ok(['sessions', 'share', id, '--with', bob.role, '--write'], ann.options);
    const resumed = await runPiped(['--session-id', id, '--autosave', 'off'], 'bob adds a step\n/quit\n', bob.options);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(await ok(['sessions', 'show', id, '--json'], ann.options)).messages.map((m: { content: string }) => m.content)).toContain('bob adds a step');

    // The team: everyone who is a member.
    expect(ids(await ok(['sessions', 'list', '--json'], cat.options))).toEqual([]);
    await ok(['sessions', 'share', id, '--team'], ann.options);
    expect(JSON.parse(await ok(['sessions', 'list', '--json'], cat.options))).toMatchObject([{ id, owner: ann.role }]);
    const shares = JSON.parse(await ok(['sessions', 'show', id, '--json'], ann.options)).shares;
    expect(shares).toEqual([
      { grantee: bob.role, writable: true },
      { grantee: 'public', writable: false },
    ].sort((x, y) => (x.grantee < y.grantee ? -1 : 1)));

    expect(await ok(['sessions', 'unshare', id, '--team'], ann.options)).toBe(`Stopped sharing ${id} with the team. Now shared with: ${bob.role} (read and write).\n`);
    expect(await ok(['sessions', 'unshare', id], ann.options)).toBe(`Stopped sharing ${id} with ${bob.role}. It is yours alone now.\n`);
    expect(await ok(['sessions', 'unshare', id], ann.options)).toBe(`${id} was not shared: nothing changed.\n`);
    expect(ids(await ok(['sessions', 'list', '--json'], bob.options))).not.toContain(id);
    expect(await refused(['sessions', 'share', id, '--with', 'nobody_here'], ann.options)).toMatch(/^chatkeep: No role named `nobody_here` on the server at /);
  });

  it('hands a one-person database over to a team: its sessions stay that person\'s, who becomes a member', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const carol = await person(db, 'carol');
    const dave = await person(db, 'dave');
    await runSql(db, `GRANT CREATE ON DATABASE ${new URL(db).pathname.slice(1)} TO ${carol.role}`);
    // Carol's database as an older chatkeep left it: schema version 2, a session in it.
    const source = await createDatabase(inject('postgresAdminUrl'));
    const id = await chat({ role: 'postgres', url: source, options: as(source) }, 'carol kept this alone');
    const [row] = await runSql<Record<string, unknown>>(
      source,
      'SELECT id, project_key, project_path, title, status, created_at, updated_at, message_count, snapshot, snapshot_bytes, snapshot_at, schema_version, journal_seq FROM chatkeep.sessions',
    );
    await runSql(carol.url, `CREATE SCHEMA chatkeep; CREATE TABLE chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL); ${MIGRATIONS[0]} ${MIGRATIONS[1]}
      INSERT INTO chatkeep.migrations (version, tool_version) VALUES (1, 'old'), (2, 'old');`);
    await runSql(carol.url, 'INSERT INTO chatkeep.ids (id) VALUES ($1)', [id]);
    await runSql(carol.url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, 'old-host')", [row!.project_key, row!.project_path]);
    const columns = Object.keys(row!);
    await runSql(carol.url, `INSERT INTO chatkeep.sessions (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row!));

    // Carol's next chatkeep migrates: her session is hers.
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], carol.options))).toEqual([id]);
    expect(await runSql(db, 'SELECT owner FROM chatkeep.sessions')).toEqual([{ owner: carol.role }]);
    const done = await ok(['db', 'setup', '--member', dave.role], as(db));
    expect(done).toContain(`The sessions ${carol.role} kept here alone stay ${carol.role}'s; ${carol.role} is now a member.`);
    expect(await runSql(db, "SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = 'chatkeep'")).toEqual([{ owner: 'chatkeep_owner' }]);
    expect(JSON.parse(await ok(['sessions', 'show', id, '--json'], carol.options)).messages[0].content).toBe('carol kept this alone');
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], dave.options))).toEqual([]);
    const daveId = await chat(dave, 'dave joins');
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], carol.options))).toEqual([id]);
    expect(ids(await ok(['sessions', 'list', '--all', '--json'], dave.options))).toEqual([daveId]);
  });

  it('db status says a connection through a proxy or pooler (another port than the server listens on) is likely pooled', async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const direct = JSON.parse(await ok(['db', 'status', '--json'], as(db))) as { pooled: { verdict: string; reason: string }; schemaVersion: number | null };
    expect(direct.pooled.verdict).toBe('no');
    // db status reads only: no schema is created on a fresh database.
    expect(direct.schemaVersion).toBeNull();
    expect(await runSql(db, "SELECT 1 FROM pg_namespace WHERE nspname = 'chatkeep'")).toEqual([]);
    const proxy = await startProxy(db);
    try {
      const through = JSON.parse(await ok(['db', 'status', '--json'], as(proxy.url))) as { pooled: { verdict: string; reason: string } };
      expect(through.pooled).toEqual({
        verdict: 'likely',
        reason: `the URL names port ${new URL(proxy.url).port} and the server listens on ${new URL(db).port}: a pooler or proxy is in between`,
      });
    } finally {
      await proxy.close();
    }
  });

  it('explains db and share in --help, and refuses them in one line where they cannot work', async () => {
    const home = tmpHome();
    const options = { home, cwd: home };
    const help = await ok(['db', '--help'], options);
    for (const word of ['chatkeep db setup [--member ROLE…] [--print] [--json]', 'chatkeep db status [--json]', '--member ROLE', '--print', 'PGSSLMODE']) expect(help).toContain(word);
    expect(await ok(['db', 'status', '--help'], options)).not.toContain('--member');
    const sessionsHelp = await ok(['sessions', 'share', '--help'], options);
    for (const word of ['chatkeep sessions share ID --with ROLE|--team [--write] [--json]', '--with ROLE', '--team', '--write']) expect(sessionsHelp).toContain(word);
    expect(await ok(['--help'], options)).toContain('chatkeep db setup|status');
    expect(await refused(['db', 'status'], options)).toMatch(/^chatkeep: chatkeep db status works on a PostgreSQL store, and the sessions here are kept in the data directory: set CHATKEEP_STORE=/);
    expect(await refused(['sessions', 'share', 'session-1', '--team'], options)).toMatch(/^chatkeep: Sessions in a data directory are yours alone: sharing needs/);
    expect(await refused(['sessions', 'share', 'session-1'], options)).toBe('chatkeep: sessions share needs --with ROLE or --team: whom to share with. See chatkeep sessions --help');
    expect(await refused(['sessions', 'share', 'session-1', '--team', '--with', 'x'], options)).toBe('chatkeep: use only one of --with ROLE and --team. See chatkeep sessions --help');
    expect(await refused(['db', 'setup', '--member'], options)).toMatch(/^chatkeep: bad option/);
    expect(await refused(['db', 'launch'], options)).toBe('chatkeep: unknown command `db launch`. See chatkeep db --help');
    expect(await refused(['db', 'status', '--print'], options)).toBe('chatkeep: --print is an option of db setup. See chatkeep db --help');
  });
});
