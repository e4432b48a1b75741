/**
 * A new database whose chatkeep schema is at an older version, as a build of that version left
 * it: for the upgrade tests, which fill it and let this build migrate it.
 */
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { createDatabase, runSql } from './postgres.js';

/** Creates a database with the schema at `version` (the first `version` migrations, recorded); its URL. */
export async function databaseAtVersion(adminUrl: string, version: number): Promise<string> {
  const url = await createDatabase(adminUrl);
  await runSql(url, 'CREATE SCHEMA chatkeep');
  await runSql(url, 'CREATE TABLE chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL)');
  for (let v = 1; v <= version; v++) {
    await runSql(url, MIGRATIONS[v - 1]!);
    await runSql(url, "INSERT INTO chatkeep.migrations (version, tool_version) VALUES ($1, '0.1.0')", [v]);
  }
  return url;
}
