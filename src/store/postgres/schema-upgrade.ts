/**
 * Brings the store's schema (`chatkeep` in the database) to this build's version by running the
 * migrations it lacks (migrations.ts); `chatkeep.migrations` records the versions applied. A
 * database migrated by a newer chatkeep is refused and left untouched, like a newer file.
 */
import type { ClientBase, Pool, QueryConfig } from 'pg';
import { FutureStoreSchemaError, UserError } from '../../session/api/errors.js';
import { packageVersion } from '../../version.js';
import type { Target } from './connect.js';
import { storeError, transaction } from './connect.js';
import { quoteIdent } from './quote.js';
import { LOCK_SPACE } from './lock-key.js';
import { MIGRATIONS, STORE_SCHEMA_VERSION } from './migrations.js';

/** How long one migration may run: search-owner.ts's rewrites ~2 M rows a minute on a busy server. */
const MIGRATION_TIMEOUT_MS = 60 * 60_000;

/**
 * Creates the schema, or (on a team's database, where it belongs to another role this one may
 * act as: the admin) acts as its owner for the rest of the transaction, so that what a
 * migration creates belongs to the owner too.
 */
export async function asSchemaOwner(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ owner: string; mine: boolean; may: boolean }>(
    `SELECT pg_get_userbyid(nspowner) AS owner, nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) AS mine,
       pg_has_role(current_user, nspowner, 'MEMBER') AS may FROM pg_namespace WHERE nspname = 'chatkeep'`,
  );
  const schema = rows[0];
  if (!schema) await client.query('CREATE SCHEMA chatkeep');
  else if (!schema.mine && schema.may) await client.query(`SET LOCAL ROLE ${quoteIdent(schema.owner)}`);
}

/** A team's member cannot bring the schema up to date (only its owner can): told so, and whom to ask. */
async function mayMigrate(client: ClientBase, target: Target, seen: number): Promise<void> {
  const { rows } = await client.query<{ may: boolean }>(
    "SELECT pg_has_role(current_user, nspowner, 'USAGE') AS may FROM pg_namespace WHERE nspname = 'chatkeep'",
  );
  if (rows[0]?.may !== false) return;
  throw new UserError(
    `The chatkeep schema at ${target.location} is at version ${seen} and this chatkeep needs ${STORE_SCHEMA_VERSION}, which only its owner can bring about.`,
    'E_STORE_PRIVILEGE',
    2,
    { to: 'The admin should run', run: ['db', 'setup'] },
  );
}

/** The version recorded in the database (0: none yet), or undefined when it has no chatkeep schema. */
async function recorded(run: (sql: string) => Promise<{ v: number | null }[]>): Promise<number | undefined> {
  try {
    return (await run('SELECT max(version) AS v FROM chatkeep.migrations'))[0]?.v ?? 0;
  } catch (err) {
    if ((err as { code?: string }).code === '42P01' || (err as { code?: string }).code === '3F000') return undefined;
    throw err;
  }
}

/**
 * Brings the schema to this build's version. The common case (already current) costs one query;
 * otherwise one transaction, serialized across processes by a transaction-level advisory lock.
 */
export async function migrate(pool: Pool, target: Target): Promise<void> {
  const seen = await recorded(async (sql) => {
    // The role is learnt with the version (no extra round trip): messages about privileges name it.
    try {
      const rows = (await pool.query<{ v: number | null; role: string }>(sql.replace('SELECT', 'SELECT current_user AS role,'))).rows;
      target.role = rows[0]?.role;
      return rows;
    } catch (err) {
      if ((err as { code?: string }).code === '42501') target.role ??= (await pool.query<{ role: string }>('SELECT current_user AS role').catch(() => undefined))?.rows[0]?.role;
      throw err;
    }
  }).catch((err: unknown) => {
    throw storeError(err, target);
  });
  if (seen === STORE_SCHEMA_VERSION) return;
  if (seen !== undefined && seen > STORE_SCHEMA_VERSION) throw new FutureStoreSchemaError(target.location, seen, STORE_SCHEMA_VERSION);
  await transaction(pool, target, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_SPACE]);
    await asSchemaOwner(client);
    if (seen !== undefined && seen > 0) await mayMigrate(client, target, seen);
    await client.query(
      'CREATE TABLE IF NOT EXISTS chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL)',
    );
    const current = (await recorded(async (sql) => (await client.query<{ v: number | null }>(sql)).rows)) ?? 0;
    // Thrown inside the transaction: its rollback leaves a newer database exactly as it was.
    if (current > STORE_SCHEMA_VERSION) throw new FutureStoreSchemaError(target.location, current, STORE_SCHEMA_VERSION);
    for (let version = current + 1; version <= STORE_SCHEMA_VERSION; version++) {
      // A migration may rewrite every row of a table (millions on a team's server): its own time, not a query's.
      // (pg reads `query_timeout` per query; its types do not list it.)
      const migration: QueryConfig & { query_timeout: number } = { text: MIGRATIONS[version - 1]!, query_timeout: MIGRATION_TIMEOUT_MS };
      await client.query(migration);
      await client.query('INSERT INTO chatkeep.migrations (version, tool_version) VALUES ($1, $2)', [version, packageVersion()]);
    }
  });
}
