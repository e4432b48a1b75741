/**
 * A fresh database and a fresh data home for each test of a suite, and every PostgreSQL store the
 * test opened closed after it: what most contract tests of the PostgreSQL store set up alike.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, inject } from 'vitest';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/store/postgres/store.js';
import { createDatabase } from './postgres.js';

export interface EachTest {
  /** This test's database. */
  readonly url: string;
  /** This test's working directory (the store's project). */
  readonly cwd: string;
  /** A store on `at` (this test's database unless given), closed after the test. */
  open(at?: string, options?: Partial<PostgresStoreOptions>): Promise<PostgresStore>;
}

/** Registers the suite's hooks (call it inside `describe`); `prefix` names the data homes. */
export function storeEachTest(prefix: string): EachTest {
  let url = '';
  let cwd = '';
  const opened: PostgresStore[] = [];
  beforeEach(async () => {
    url = await createDatabase(inject('postgresAdminUrl'));
    cwd = await mkdtemp(join(tmpdir(), `chatkeep-${prefix}-`));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(cwd, { recursive: true, force: true });
  });
  return {
    get url() {
      return url;
    },
    get cwd() {
      return cwd;
    },
    async open(at = url, options = {}) {
      const store = await openPostgresStore(at, { interpreter, cwd, ...options });
      opened.push(store);
      return store;
    },
  };
}
