/** The store contract against a real PostgreSQL (one server per test run, a database per test). */
import { inject } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { createDatabase, runSql } from '../support/postgres.js';
import { holdInChild } from '../support/lock-holder.js';
import { searchContract, storeContract } from './store.contract.js';

storeContract('postgres', async () => {
  const url = await createDatabase(inject('postgresAdminUrl'));
  return {
    open: (cwd, options) => openPostgresStore(url, { cwd, ...options }),
    holdInChild: (id, cwd) => holdInChild('postgres', url, id, cwd),
    async removeSession(id) {
      await runSql(url, 'DELETE FROM chatkeep.sessions WHERE id = $1', [id]);
    },
    async supersede(id) {
      // The epoch moves on as a taking through a lease does once the holder's lease has expired.
      await runSql(url, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    },
    dispose: async () => undefined,
  };
});

// A server without pg_trgm (here: one where the migration cannot create it, as when the package
// is not installed): search narrows by the core tsvector of sequences and answers the same.
searchContract('postgres without pg_trgm', async () => {
  const url = await createDatabase(inject('postgresAdminUrl'));
  await runSql(url, 'CREATE SCHEMA chatkeep');
  await runSql(url, "CREATE FUNCTION chatkeep.similarity(text, text) RETURNS real LANGUAGE sql AS 'SELECT 0::real'");
  return {
    open: (cwd, options) => openPostgresStore(url, { cwd, ...options }),
    holdInChild: (id, cwd) => holdInChild('postgres', url, id, cwd),
    async removeSession(id) {
      await runSql(url, 'DELETE FROM chatkeep.sessions WHERE id = $1', [id]);
    },
    async supersede(id) {
      await runSql(url, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    },
    async dispose() {
      // The premise: the migration fell back to the core index.
      const [row] = await runSql<{ trgm: boolean }>(url, "SELECT to_regclass('chatkeep.search_messages_trgm') IS NOT NULL AS trgm");
      if (row?.trgm !== false) throw new Error('pg_trgm was created after all: this suite tests nothing');
    },
  };
});
