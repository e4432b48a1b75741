/**
 * `chatkeep db setup` (docs/design.md §9): makes a database ready for a team, in one transaction
 * run by an admin (a superuser, or a role that may create roles and schemas). What it runs is a
 * list of SQL statements, planned from the database's state, so that `--print` shows exactly
 * what a real run would do:
 *
 * 1. the roles `chatkeep_owner` (owns everything) and `chatkeep_team` (the members), NOLOGIN;
 * 2. the schema: created owned by `chatkeep_owner`; or, for a database one person has used
 *    alone, brought up to date as that person (their rows stay theirs) and then handed over,
 *    that person becoming a member;
 * 3. the migrations, run as `chatkeep_owner` (row-level security is one of them);
 * 4. grants: members read and write rows (row-level security decides which), never the schema;
 * 5. each named login role made a member of `chatkeep_team`.
 */
import type { ClientBase } from 'pg';
import { UserError } from '../../session/api/errors.js';
import { packageVersion } from '../../version.js';
import type { Target } from './connect.js';
import { transaction } from './connect.js';
import { LOCK_SPACE } from './lock-key.js';
import { MIGRATIONS, STORE_SCHEMA_VERSION } from './migrations.js';
import { quoteIdent, quoteLiteral } from './quote.js';
import { OWNER_ROLE, TEAM_ROLE } from './team/team-roles.js';

interface State {
  role: string;
  superuser: boolean;
  database: string;
  schemaOwner: string | null;
  version: number;
  hasOwner: boolean;
  hasTeam: boolean;
  adminInOwner: boolean;
  /** Each named member: whether it exists, may log in, and is a member already. */
  members: { name: string; exists: boolean; login: boolean; member: boolean }[];
}

export interface SetupResult {
  location: string;
  database: string;
  schemaVersion: number;
  createdSchema: boolean;
  /** The role that used the schema alone before, when it was handed over to the team. */
  handedOverFrom?: string;
  added: string[];
  alreadyMembers: string[];
  statements: string[];
}

const O = quoteIdent(OWNER_ROLE);
const T = quoteIdent(TEAM_ROLE);

async function readState(client: ClientBase, members: readonly string[]): Promise<State> {
  const { rows } = await client.query<Omit<State, 'members' | 'version'>>(
    `SELECT current_user AS role, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
       current_database() AS database, (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'chatkeep') AS "schemaOwner",
       EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS "hasOwner", EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $2) AS "hasTeam",
       EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1 AND pg_has_role(current_user, oid, 'MEMBER')) AS "adminInOwner"`,
    [OWNER_ROLE, TEAM_ROLE],
  );
  const base = rows[0]!;
  let version = 0;
  if (base.schemaOwner !== null && (await client.query("SELECT to_regclass('chatkeep.migrations') AS t")).rows[0]?.t !== null) {
    version = (await client.query<{ v: number | null }>('SELECT max(version) AS v FROM chatkeep.migrations')).rows[0]?.v ?? 0;
  }
  const found = await client.query<{ name: string; login: boolean; member: boolean }>(
    `SELECT r.rolname AS name, r.rolcanlogin AS login,
       EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles t ON t.oid = m.roleid WHERE m.member = r.oid AND t.rolname = $2) AS member
     FROM pg_roles r WHERE r.rolname = ANY($1)`,
    [members, TEAM_ROLE],
  );
  const byName = new Map(found.rows.map((r) => [r.name, r]));
  return {
    ...base,
    version,
    members: members.map((name) => ({ name, exists: byName.has(name), login: byName.get(name)?.login ?? false, member: byName.get(name)?.member ?? false })),
  };
}

/** The migrations not yet applied, each followed by its record. */
function migrationsFrom(version: number): string[] {
  const out = [
    'CREATE TABLE IF NOT EXISTS chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL)',
  ];
  for (let v = version + 1; v <= STORE_SCHEMA_VERSION; v++) {
    out.push(MIGRATIONS[v - 1]!.trim(), `INSERT INTO chatkeep.migrations (version, tool_version) VALUES (${v}, ${quoteLiteral(packageVersion())})`);
  }
  return out;
}

/** Everything in the schema not yet the owner role's becomes it (tables carry their indexes and identity sequences). */
const HAND_OVER = `DO $$ DECLARE o record; BEGIN
  FOR o IN SELECT c.oid::regclass AS name FROM pg_class c
    WHERE c.relnamespace = 'chatkeep'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm') AND pg_get_userbyid(c.relowner) <> ${quoteLiteral(OWNER_ROLE)} LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${O}', o.name);
  END LOOP;
  FOR o IN SELECT p.oid::regprocedure AS name FROM pg_proc p
    WHERE p.pronamespace = 'chatkeep'::regnamespace AND pg_get_userbyid(p.proowner) <> ${quoteLiteral(OWNER_ROLE)} LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO ${O}', o.name);
  END LOOP;
END $$`;

const GRANTS = [
  `GRANT USAGE ON SCHEMA chatkeep TO ${T}`,
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA chatkeep TO ${T}`,
  `REVOKE INSERT, UPDATE, DELETE ON chatkeep.migrations FROM ${T}`,
  `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA chatkeep TO ${T}`,
  // Tables a later migration adds are the team's to use too.
  `ALTER DEFAULT PRIVILEGES FOR ROLE ${O} IN SCHEMA chatkeep GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${T}`,
  `ALTER DEFAULT PRIVILEGES FOR ROLE ${O} IN SCHEMA chatkeep GRANT USAGE, SELECT ON SEQUENCES TO ${T}`,
];

/** The statements a setup runs on a database in `state`; a bad member name is refused before any is run. */
function plan(state: State, location: string): { statements: string[]; handedOverFrom?: string; add: string[] } {
  for (const m of state.members) {
    if (m.name === OWNER_ROLE || m.name === TEAM_ROLE) throw new UserError(`--member ${m.name}: that is one of chatkeep's own roles; give a person's login role.`, 'E_USAGE');
    if (!m.exists) {
      throw new UserError(
        `No role named \`${m.name}\` on the server at ${location}: create the login first (CREATE ROLE ${quoteIdent(m.name)} LOGIN PASSWORD '…'), then run db setup again.`,
        'E_NO_ROLE',
      );
    }
    if (!m.login) throw new UserError(`Role \`${m.name}\` cannot log in, so it cannot be a member: give a person's login role (ALTER ROLE ${quoteIdent(m.name)} LOGIN).`, 'E_NO_ROLE');
  }
  const s: string[] = [];
  if (!state.hasOwner) s.push(`CREATE ROLE ${O} NOLOGIN`);
  if (!state.hasTeam) s.push(`CREATE ROLE ${T} NOLOGIN`);
  // The admin acts as the owner to create what it owns (a superuser may anyway).
  if (!state.superuser && !state.adminInOwner) s.push(`GRANT ${O} TO ${quoteIdent(state.role)}`);
  let version = state.version;
  let handedOverFrom: string | undefined;
  if (state.schemaOwner === null) {
    s.push(`CREATE SCHEMA chatkeep AUTHORIZATION ${O}`);
  } else if (state.schemaOwner !== OWNER_ROLE) {
    // One person's database: brought up to date as that person, so that their rows are theirs.
    handedOverFrom = state.schemaOwner;
    if (version < STORE_SCHEMA_VERSION) s.push(`SET ROLE ${quoteIdent(state.schemaOwner)}`, ...migrationsFrom(version), 'RESET ROLE');
    version = STORE_SCHEMA_VERSION;
    s.push(`ALTER SCHEMA chatkeep OWNER TO ${O}`, HAND_OVER);
  }
  s.push(`SET ROLE ${O}`);
  if (version < STORE_SCHEMA_VERSION) s.push(...migrationsFrom(version));
  s.push(...GRANTS, 'RESET ROLE');
  const wanted = new Set(state.members.filter((m) => !m.member).map((m) => m.name));
  if (handedOverFrom !== undefined) wanted.add(handedOverFrom);
  const add = [...wanted].sort();
  for (const name of add) s.push(`GRANT ${T} TO ${quoteIdent(name)}`);
  return { statements: s, ...(handedOverFrom !== undefined ? { handedOverFrom } : {}), add };
}

/**
 * Plans the setup and, unless `print`, runs it in one transaction (serialized with migrations
 * by their advisory lock). A role without the right to create roles or schemas is told so.
 */
export async function setupTeam(pool: import('pg').Pool, target: Target, members: readonly string[], print: boolean): Promise<SetupResult> {
  try {
    return await setupOnce(pool, target, members, print);
  } catch (err) {
    // Roles belong to the whole server: a setup of another database made them meanwhile. Planned again, it grants only.
    const code = (err as { code?: string }).code;
    if (code !== '42710' && code !== '23505') throw err;
    return setupOnce(pool, target, members, print);
  }
}

function setupOnce(pool: import('pg').Pool, target: Target, members: readonly string[], print: boolean): Promise<SetupResult> {
  return transaction(pool, target, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_SPACE]);
    const role = (await client.query<{ role: string }>('SELECT current_user AS role')).rows[0]!.role;
    let state: State;
    let planned: ReturnType<typeof plan>;
    try {
      state = await readState(client, members);
      planned = plan(state, target.location);
      if (!print) for (const sql of planned.statements) await client.query(sql);
    } catch (err) {
      if ((err as { code?: string }).code !== '42501') throw err;
      throw new UserError(
        `db setup needs a role that may create roles and schemas (a superuser, or one with CREATEROLE and CREATE on the database), and ${role} may not (${(err as Error).message}): run it with the admin's URL in CHATKEEP_STORE.`,
        'E_STORE_PRIVILEGE',
      );
    }
    return {
      location: target.location,
      database: state.database,
      schemaVersion: STORE_SCHEMA_VERSION,
      createdSchema: state.schemaOwner === null,
      ...(planned.handedOverFrom !== undefined ? { handedOverFrom: planned.handedOverFrom } : {}),
      added: planned.add,
      alreadyMembers: state.members.filter((m) => m.member).map((m) => m.name),
      statements: planned.statements,
    };
  });
}

/** What a setup prints with `--print`: the statements as one script psql runs. */
export function setupScript(result: SetupResult): string {
  const head = `-- chatkeep db setup for ${result.database} (schema version ${result.schemaVersion}); run as a superuser or a role with CREATEROLE`;
  return [head, 'BEGIN;', ...result.statements.map((sql) => `${sql};`), 'COMMIT;', ''].join('\n');
}

