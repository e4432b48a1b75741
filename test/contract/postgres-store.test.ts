/** The store contract against a real PostgreSQL (one server per test run, a database per test). */
import { inject } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { holdInChild } from '../helpers/lock-holder.js';
import type { StoreBacking } from './contract-kit.js';
import { searchContract, storeContract } from './store.contract.js';

/** The contract's way in and out of a database at `url`. */
function backingOn(url: string): StoreBacking {
  return {
    open: (cwd, options) => openPostgresStore(url, { interpreter, cwd, ...options }),
    holdInChild: (id, cwd) => holdInChild('postgres', url, id, cwd),
    async removeSession(id) {
      await runSql(url, 'DELETE FROM chatkeep.sessions WHERE id = $1', [id]);
    },
    async writeNewerEvent(id, { seq, ts, type, payload }) {
      await runSql(url, 'INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, $2, $3, $4, $5::json)', [id, seq, ts, type, payload]);
    },
    async supersede(id) {
      // The epoch moves on as a taking through a lease does once the holder's lease has expired.
      await runSql(url, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    },
    dispose: async () => undefined,
  };
}

storeContract('postgres', async () => backingOn(await createDatabase(inject('postgresAdminUrl'))));

// A server without pg_trgm (here: one where the migration cannot create it, as when the package
// is not installed): search narrows by the core tsvector of sequences and answers the same.
searchContract('postgres without pg_trgm', async () => {
  const url = await createDatabase(inject('postgresAdminUrl'));
  await runSql(url, 'CREATE SCHEMA chatkeep');
  await runSql(url, "CREATE FUNCTION chatkeep.similarity(text, text) RETURNS real LANGUAGE sql AS 'SELECT 0::real'");
  return {
    ...backingOn(url),
    async dispose() {
      // The premise: the migration fell back to the core index.
      const [row] = await runSql<{ trgm: boolean }>(url, "SELECT to_regclass('chatkeep.search_messages_trgm') IS NOT NULL AS trgm");
      if (row?.trgm !== false) throw new Error('pg_trgm was created after all: this suite tests nothing');
    },
  };
});
