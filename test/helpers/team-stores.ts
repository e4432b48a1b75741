/**
 * Two members of a team's PostgreSQL server, each with chatkeep's store open in one project, for
 * contract tests of what row security lets a member read: the schema migrated by the server's
 * admin (who may create pg_trgm), then the team set up with both as members.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { createDatabase } from './postgres.js';
import { person, type Person } from './team.js';

export interface TwoMembers {
  /** The database, as the admin. */
  url: string;
  ann: Person;
  bob: Person;
  cwd: string;
  annStore: PostgresStore;
  bobStore: PostgresStore;
  /** Closes both stores and removes `cwd`. */
  close(): Promise<void>;
}

/** A new database with members `<prefix>a` and `<prefix>b`, set up as a team. */
export async function twoMembers(prefix: string): Promise<TwoMembers> {
  const url = await createDatabase(inject('postgresAdminUrl'));
  const [ann, bob] = [await person(url, `${prefix}a`), await person(url, `${prefix}b`)];
  const cwd = await mkdtemp(join(tmpdir(), `chatkeep-${prefix}-`));
  await (await openPostgresStore(url, { interpreter, cwd })).close();
  await withPool(url, {}, (pool, target) => setupTeam(pool, target, [ann.role, bob.role], false), { migrate: false });
  const annStore = await openPostgresStore(ann.url, { interpreter, cwd });
  const bobStore = await openPostgresStore(bob.url, { interpreter, cwd });
  return { url, ann, bob, cwd, annStore, bobStore, close: async () => {
    await Promise.all([annStore.close(), bobStore.close()]);
    await rm(cwd, { recursive: true, force: true });
  } };
}
