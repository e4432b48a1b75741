/**
 * vitest globalSetup: one PostgreSQL for the whole run (tests create a database each), or the
 * server of `CHATKEEP_TEST_DATABASE_URL` when it is set.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL (with its password) to a database on the test server where databases may be created. */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.CHATKEEP_TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresAdminUrl', given);
    return async () => undefined;
  }
  const server = await startPostgres();
  project.provide('postgresAdminUrl', server.url);
  return () => server.stop();
}
