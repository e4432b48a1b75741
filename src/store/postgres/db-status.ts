/**
 * `chatkeep db status` (docs/design.md §9): what the server says about the store, read-only (no
 * schema is created or migrated): its version, the role chatkeep works as and whether that
 * role bypasses row-level security, the policies in force per table, and a pooler guess.
 *
 * The pooler guess: PgBouncer and its kind forward to a server that listens elsewhere, so a
 * server port (`inet_server_port()`) other than the URL's says "through a pooler or proxy";
 * a backend that changes between two transactions on one connection says "transaction
 * pooling" for sure. Neither is proof of absence: a pooler on the server's own port that
 * happens to keep one backend looks direct.
 */
import type { Pool } from 'pg';
import type { Target } from './connect.js';
import { connectClient, query } from './connect.js';
import { STORE_SCHEMA_VERSION } from './migrations.js';
import { SECURED_TABLES } from './team/row-security.js';
import { TEAM_ROLE } from './team/team-roles.js';

export interface TableSecurity {
  table: string;
  rowSecurity: boolean;
  forced: boolean;
  policies: string[];
}

export interface DbStatus {
  location: string;
  database: string;
  /** The version recorded in the schema (null: no schema yet), and the one this chatkeep writes. */
  schemaVersion: number | null;
  expectedVersion: number;
  schemaOwner: string | null;
  /** False when the schema exists and this role may not use it (not yet a member): its version cannot be read. */
  schemaUsable: boolean;
  role: string;
  /** A superuser or BYPASSRLS role sees every row whatever the policies say. */
  bypassesRowSecurity: boolean;
  teamMember: boolean;
  tables: TableSecurity[];
  /** Tables that hold rows and have no row-level security forced. */
  unsecured: string[];
  pooled: { verdict: 'no' | 'likely' | 'yes'; reason: string };
  tls: string;
}

export async function dbStatus(pool: Pool, target: Target): Promise<DbStatus> {
  const [me] = await query<{ role: string; bypass: boolean; database: string; owner: string | null; usable: boolean; member: boolean; server_port: number | null; ssl: boolean }>(
    pool,
    target,
    `SELECT current_user AS role, r.rolsuper OR r.rolbypassrls AS bypass, current_database() AS database,
       (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'chatkeep') AS owner,
       coalesce((SELECT has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = 'chatkeep'), false) AS usable,
       EXISTS (SELECT 1 FROM pg_roles t WHERE t.rolname = $1 AND pg_has_role(current_user, t.oid, 'MEMBER')) AS member,
       inet_server_port() AS server_port,
       coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS ssl
     FROM pg_roles r WHERE r.rolname = current_user`,
    [TEAM_ROLE],
  );
  const tables = await query<{ table: string; rowSecurity: boolean; forced: boolean; policies: string[] }>(
    pool,
    target,
    `SELECT c.relname AS table, c.relrowsecurity AS "rowSecurity", c.relforcerowsecurity AS forced,
       array(SELECT p.polname::text FROM pg_policy p WHERE p.polrelid = c.oid ORDER BY 1) AS policies
     FROM pg_class c WHERE c.relnamespace = to_regnamespace('chatkeep') AND c.relkind = 'r' ORDER BY c.relname`,
  );
  let version: number | null = null;
  if (me!.owner !== null && me!.usable) {
    version = (await query<{ v: number | null }>(pool, target, 'SELECT max(version) AS v FROM chatkeep.migrations').catch(() => [{ v: null }]))[0]?.v ?? null;
  }
  const unsecured = tables.filter((t) => t.table !== 'migrations' && !(t.rowSecurity && t.forced && t.policies.length > 0)).map((t) => t.table);
  return {
    location: target.location,
    database: me!.database,
    schemaVersion: version,
    expectedVersion: STORE_SCHEMA_VERSION,
    schemaOwner: me!.owner,
    schemaUsable: me!.owner === null || me!.usable,
    role: me!.role,
    bypassesRowSecurity: me!.bypass,
    teamMember: me!.member,
    tables,
    unsecured,
    pooled: await pooling(target, me!.server_port),
    tls: me!.ssl ? `encrypted (sslmode=${target.tls?.tls.mode ?? 'prefer'})` : `not encrypted (sslmode=${target.tls?.tls.mode ?? 'prefer'})`,
  };
}

async function pooling(target: Target, serverPort: number | null): Promise<DbStatus['pooled']> {
  const client = await connectClient(target);
  try {
    const pid = async (): Promise<number> => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const first = await pid();
    const second = await pid();
    if (first !== second) return { verdict: 'yes', reason: 'the server backend changed between two transactions on one connection: transaction pooling' };
  } finally {
    await client.end().catch(() => undefined);
  }
  const urlPort = target.tls?.tls.port ?? 5432;
  if (serverPort !== null && serverPort !== urlPort) {
    return { verdict: 'likely', reason: `the URL names port ${urlPort} and the server listens on ${serverPort}: a pooler or proxy is in between` };
  }
  return { verdict: 'no', reason: 'the server listens on the port the URL names' };
}

/** Whether every table that holds rows is under forced row-level security (the tables this build knows, at least). */
export function secured(status: DbStatus): boolean {
  return status.unsecured.length === 0 && SECURED_TABLES.every((t) => status.tables.some((s) => s.table === t));
}
