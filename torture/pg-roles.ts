/**
 * Two people on one team's server (docs/design.md §9): an admin runs `chatkeep db
 * setup --member A --member B`, each keeps sessions with a secret word of their own, A shares
 * one session with B read-only, and then B probes A's sessions every way it can: through
 * chatkeep (show, export, rm, share, unshare, resume, fork, list, search) and through plain SQL
 * on its own connection (SELECT, UPDATE and DELETE on every table, forged INSERTs, taking the
 * session over, switching row-level security off). Must be zero: rows of A's that B sees (the
 * shared session aside), rows of A's that change, probes that succeed.
 */
import { openSessions } from '../src/index.js';
import { runSql } from '../test/helpers/postgres.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, runPiped, type RunOptions } from './proc.js';
import { createRandom } from './random.js';

export interface PgRolesOptions {
  root: string;
  /** A fresh database, as a superuser (the admin who runs `db setup`). */
  url: string;
  /** Sessions each person keeps (default 20). */
  sessions?: number;
  /** Of A's sessions, how many B probes through chatkeep (default 5; each costs a dozen runs). */
  cliProbes?: number;
  seed?: number;
}

interface Person {
  role: string;
  url: string;
  secret: string;
  ids: string[];
  /** Per session, the word only it holds (in its title and messages). */
  words: Map<string, string>;
  run: RunOptions;
}

/** The sessions of `p` other than `shared` that `text` names (as whole IDs) or quotes (their words). */
function mentions(text: string, p: Person, shared: string): string[] {
  return p.ids.filter((id) => id !== shared && (new RegExp(`(^|[^\\w-])${id}($|[^\\w-])`).test(text) || text.includes(p.words.get(id)!)));
}

export async function run(options: PgRolesOptions): Promise<PartResult> {
  const tally = new Tally('pg-roles', { sessionsPerRole: options.sessions ?? 20, cliProbes: 0, sqlProbes: 0, tablesProbed: 0 }, [
    'setupFailures',
    'cliLeaks',
    'visibleRows',
    'changedRows',
    'forgedWrites',
    'sharedWrites',
    'schemaChanges',
  ]);
  const rng = createRandom(options.seed ?? 1);
  const tag = `${Date.now().toString(36)}${rng.int(0, 1e6)}`;
  const person = async (name: string): Promise<Person> => {
    const role = `ck_${name}_${tag}`;
    const password = `pw-${name}-${tag}`;
    await runSql(options.url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const url = new URL(options.url);
    url.username = role;
    url.password = password;
    const home = freshDir(options.root, `${name}-`);
    return { role, url: url.toString(), secret: `secret${name}${tag}`, ids: [], words: new Map(), run: { home, cwd: home, env: { CHATKEEP_STORE: url.toString() } } };
  };
  const a = await person('a');
  const b = await person('b');
  const admin: RunOptions = { home: a.run.home, cwd: a.run.cwd, env: { CHATKEEP_STORE: options.url } };
  const setup = await runPiped(['db', 'setup', '--member', a.role, '--member', b.role], '', admin);
  if (setup.code !== 0) tally.fail('setupFailures', `db setup: exit ${setup.code}: ${setup.stderr.trim()}`);

  for (const p of [a, b]) {
    const manager = await openSessions({ home: p.run.home, cwd: p.run.cwd, store: p.url });
    for (let i = 0; i < (options.sessions ?? 20); i++) {
      const word = `${p.secret}x${i}x`;
      const s = await manager.create({ title: `${word} title` });
      await s.append({ role: 'user', content: `${word} question` });
      await s.append({ role: 'assistant', content: `${word} answer` });
      await s.save();
      await s.close();
      p.ids.push(s.id);
      p.words.set(s.id, word);
    }
    await manager.history.append(`${p.secret} typed line`);
  }
  // One of A's sessions shared with B, read-only: B may see it, never change it.
  const shared = a.ids[a.ids.length - 1]!;
  const share = await runPiped(['sessions', 'share', shared, '--with', b.role], '', a.run);
  if (share.code !== 0) tally.fail('setupFailures', `share: exit ${share.code}: ${share.stderr.trim()}`);
  // A's search index brought up to date by A, so that B's own searches have nothing to index.
  await runPiped(['sessions', 'search', 'anything', '--all'], '', a.run);
  const before = await fingerprint(options.url, b.role);

  // Through chatkeep.
  const leaked = (out: string): boolean => mentions(out, a, shared).length > 0;
  const probe = async (args: string[], expectFail: boolean, figure = 'cliLeaks'): Promise<void> => {
    tally.add('cliProbes');
    const r = await runPiped(args, 'probe line\n/quit\n', b.run);
    // The ID B typed comes back in the refusal (`No session …`): it is B's own words, not a leak.
    const said = args.reduce((text, arg) => text.split(arg).join(''), r.stdout + r.stderr);
    if ((expectFail && r.code === 0) || leaked(said)) tally.fail(figure, `${args.join(' ')}: exit ${r.code}: ${(r.stdout + r.stderr).trim().slice(0, 300)}`);
  };
  // An ID typed in full that is not B's to see is looked for as a prefix next (as everywhere in
  // chatkeep): one that begins an ID B may see (`…-3` after `…`) would rightly find that one.
  const visible = [shared, ...b.ids];
  const probed = a.ids.filter((id) => id !== shared && !visible.some((v) => v.startsWith(id)));
  for (const id of probed.slice(0, options.cliProbes ?? 5)) {
    for (const args of [
      ['sessions', 'show', id],
      ['sessions', 'show', id, '--json'],
      ['sessions', 'export', id],
      ['sessions', 'rm', id],
      ['sessions', 'share', id, '--team'],
      ['sessions', 'unshare', id],
      ['sessions', 'restore', id],
      ['--session-id', id, '--autosave', 'off'],
      ['--fork', id, '--autosave', 'off'],
    ]) {
      await probe(args, true);
    }
  }
  for (const args of [
    ['sessions', 'list', '--all', '--json'],
    ['sessions', 'search', a.secret, '--all', '--json'],
    ['sessions', 'trash', '--json'],
  ]) {
    await probe(args, false);
  }
  for (const args of [['--session-id', shared, '--autosave', 'off'], ['sessions', 'rm', shared], ['sessions', 'share', shared, '--team'], ['sessions', 'unshare', shared]]) {
    tally.add('cliProbes');
    const r = await runPiped(args, 'probe line\n/quit\n', b.run);
    if (r.code === 0) tally.fail('sharedWrites', `${args.join(' ')} on the read-only shared session succeeded: ${r.stdout.trim().slice(0, 200)}`);
  }

  // Through plain SQL, on B's own connection.
  await sqlProbes(tally, options.url, b, a, shared, probed[0]!);
  const after = await fingerprint(options.url, b.role);
  for (const [table, print] of before) {
    if (after.get(table) !== print) tally.fail('changedRows', `rows of others in chatkeep.${table} changed`);
  }
  return tally.result();
}

/** Per table, a digest of every row not belonging to `role` (read as the admin, who bypasses row security). */
async function fingerprint(adminUrl: string, role: string): Promise<Map<string, string>> {
  const tables = await tablesOf(adminUrl);
  const out = new Map<string, string>();
  for (const t of tables) {
    const where = t.owner ? 'WHERE owner <> $1' : t.session ? 'WHERE session_id IN (SELECT id FROM chatkeep.sessions WHERE owner <> $1)' : 'WHERE $1::text IS NOT NULL';
    const [row] = await runSql<{ d: string }>(
      adminUrl,
      `SELECT md5(coalesce(string_agg(j, '|' ORDER BY j), '')) AS d FROM (SELECT row_to_json(t)::text AS j FROM chatkeep.${t.name} t ${where}) x`,
      [role],
    );
    out.set(t.name, row!.d);
  }
  return out;
}

interface TableInfo {
  name: string;
  owner: boolean;
  session: boolean;
  /** A column an UPDATE may set to itself (not an identity or generated one). */
  column: string;
}

async function tablesOf(url: string): Promise<TableInfo[]> {
  const rows = await runSql<{ name: string; columns: string[]; plain: string[] }>(
    url,
    `SELECT c.table_name AS name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns,
       array_agg(c.column_name::text ORDER BY c.ordinal_position) FILTER (WHERE c.is_identity = 'NO' AND c.is_generated = 'NEVER') AS plain
     FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'chatkeep' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'migrations' GROUP BY c.table_name ORDER BY 1`,
  );
  return rows.map((r) => ({ name: r.name, owner: r.columns.includes('owner'), session: r.columns.includes('session_id'), column: r.plain.find((c) => c !== 'owner') ?? r.plain[0]! }));
}

async function sqlProbes(tally: Tally, adminUrl: string, b: Person, a: Person, shared: string, target: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: b.url });
  await client.connect();
  // Every statement in a transaction rolled back: what it could reach is counted by RETURNING.
  const attempt = async (sql: string, params: unknown[] = []): Promise<{ rows: { j: string }[]; error?: string }> => {
    tally.add('sqlProbes');
    await client.query('BEGIN');
    try {
      const result = await client.query<{ j: string }>(sql, params);
      return { rows: result.rows ?? [] };
    } catch (err) {
      return { rows: [], error: err instanceof Error ? err.message : String(err) };
    } finally {
      await client.query('ROLLBACK');
    }
  };
  // A row of A's: it names one of A's unshared sessions, or holds its word, or A as its owner
  // (the project of the shared session is A's and visible to B by design: it names the shared session's project only).
  const others = (rows: { j: string }[]): number =>
    rows.filter((r) => !r.j.includes(`"${shared}"`) && (mentions(r.j, a, shared).length > 0 || (r.j.includes(`"${a.role}"`) && !r.j.includes('"key"')))).length;
  try {
    for (const t of await tablesOf(adminUrl)) {
      tally.add('tablesProbed');
      const read = await attempt(`SELECT row_to_json(t)::text AS j FROM chatkeep.${t.name} t`);
      const seen = others(read.rows);
      if (seen > 0) tally.fail('visibleRows', `${seen} of others' rows visible in chatkeep.${t.name}`);
      const updated = await attempt(`UPDATE chatkeep.${t.name} t SET ${t.column} = ${t.column} RETURNING row_to_json(t)::text AS j`);
      const deleted = await attempt(`DELETE FROM chatkeep.${t.name} t RETURNING row_to_json(t)::text AS j`);
      for (const [what, r] of [['UPDATE', updated], ['DELETE', deleted]] as const) {
        const n = others(r.rows);
        if (n > 0) tally.fail('changedRows', `${what} reached ${n} of others' rows in chatkeep.${t.name}`);
      }
    }
    const direct = [
      ['UPDATE chatkeep.sessions t SET title = $2 WHERE id = $1 RETURNING row_to_json(t)::text AS j', [target, 'taken']],
      ['DELETE FROM chatkeep.sessions t WHERE id = $1 RETURNING row_to_json(t)::text AS j', [target]],
      ['UPDATE chatkeep.sessions t SET title = $2 WHERE id = $1 RETURNING row_to_json(t)::text AS j', [shared, 'changed by the reader']],
      ['DELETE FROM chatkeep.events t WHERE session_id = $1 RETURNING row_to_json(t)::text AS j', [shared]],
    ] as const;
    for (const [sql, params] of direct) {
      const r = await attempt(sql, [...params]);
      if (r.rows.length > 0) tally.fail(params[0] === shared ? 'sharedWrites' : 'changedRows', `${sql} reached ${r.rows.length} row(s)`);
    }
    const forged = [
      [`INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, 999999, now(), 'message', '{}')`, [target]],
      [`INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, 999999, now(), 'message', '{}')`, [shared]],
      ['INSERT INTO chatkeep.shares (session_id, grantee, writable) VALUES ($1, $2, true)', [target, b.role]],
      ['INSERT INTO chatkeep.shares (session_id, grantee, writable, owner) VALUES ($1, $2, true, $3)', [target, b.role, a.role]],
      ['UPDATE chatkeep.shares SET writable = true WHERE session_id = $1', [shared]],
      ["INSERT INTO chatkeep.history (project_key, line, owner) VALUES ('x', 'forged', $1)", [a.role]],
      ["INSERT INTO chatkeep.search_sessions (session_id, version) VALUES ($1, 'forged')", [target]],
      ['UPDATE chatkeep.sessions SET owner = $1 WHERE owner = current_user', [a.role]],
      ['INSERT INTO chatkeep.quarantine (session_id, part, reason, at, owner) VALUES ($1, $2, $3, now(), $4)', [target, 'snapshot', 'forged', a.role]],
    ] as const;
    for (const [sql, params] of forged) {
      const r = await attempt(`WITH w AS (${sql} RETURNING 1) SELECT count(*)::text AS j FROM w`, [...params]);
      if (r.error === undefined && r.rows[0]?.j !== '0') tally.fail('forgedWrites', `${sql} (${params.join(', ')}) was accepted`);
    }
    for (const sql of [
      'ALTER TABLE chatkeep.sessions DISABLE ROW LEVEL SECURITY',
      'ALTER TABLE chatkeep.sessions NO FORCE ROW LEVEL SECURITY',
      'DROP POLICY sessions_read ON chatkeep.sessions',
      'CREATE POLICY everything ON chatkeep.sessions FOR ALL USING (true)',
      'SET ROLE chatkeep_owner',
      'ALTER TABLE chatkeep.sessions DISABLE TRIGGER ALL',
    ]) {
      const r = await attempt(sql);
      if (r.error === undefined) tally.fail('schemaChanges', `${sql} was allowed`);
    }
  } finally {
    await client.end();
  }
}
