/** The store contract against a real PostgreSQL (one server per test run, a database per test). */
import { inject } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { createDatabase, runSql } from '../support/postgres.js';
import { holdInChild } from '../support/lock-holder.js';
import { storeContract } from './store.contract.js';

storeContract('postgres', async () => {
  const url = await createDatabase(inject('postgresAdminUrl'));
  return {
    open: (cwd, options) => openPostgresStore(url, { cwd, ...options }),
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
});
