/**
 * The scale bench's bulk load on its own server, as a restore loads a dump: COPY with triggers
 * off (`session_replication_role = replica` on the loading connections only: chatkeep's per-row
 * lock-key trigger and the foreign keys' checks do not fire), then what those triggers would
 * have written made set-based, then the secondary indexes built once over all the data from their
 * own definitions. The rows are the same as a load with triggers on: every foreign key holds by
 * construction (build.ts writes a session's rows together), and each session's lock key is drawn
 * by the expression of chatkeep's own trigger function, read from the server.
 */
import type pg from 'pg';

/** The tables whose non-constraint indexes are dropped for a load and built after it. */
const INDEXED = ['sessions', 'search_messages'];

export interface Loader {
  /** Two connections, each loading with triggers off: two COPY streams at once. */
  clients: [pg.Client, pg.Client];
  /** The indexes dropped, to be made again by `finish`. */
  indexes: { name: string; def: string }[];
  /** The lock-key expression of chatkeep's trigger function. */
  randomKey: string;
}

export async function startLoad(url: string): Promise<Loader> {
  const { default: pgModule } = await import('pg');
  const clients = [new pgModule.Client({ connectionString: url }), new pgModule.Client({ connectionString: url })] as [pg.Client, pg.Client];
  for (const c of clients) {
    await c.connect();
    // A bench server of its own: nothing else writes while it loads, and a crash loses only the bench.
    await c.query("SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '1GB'");
  }
  const [fn] = (await clients[0].query<{ src: string }>("SELECT prosrc AS src FROM pg_proc WHERE proname = 'give_lock_key'")).rows;
  const randomKey = /VALUES \(NEW\.id, (.+)\);\s*RETURN NULL/s.exec(fn?.src ?? '')?.[1];
  if (!randomKey) throw new Error("bench:scale: chatkeep.give_lock_key() no longer reads as this loader expects; see bench/scale/load.ts");
  const indexes = (await clients[0].query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
      JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
      WHERE s.nspname = 'chatkeep' AND t.relname = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [INDEXED],
  )).rows;
  for (const i of indexes) await clients[0].query(`DROP INDEX ${i.name}`);
  return { clients, indexes, randomKey };
}

/** Each new session's lock key, as the trigger draws it; drawn again for the few that collide. */
export async function giveLockKeys(loader: Loader): Promise<void> {
  const [c] = loader.clients;
  for (;;) {
    await c.query(`INSERT INTO chatkeep.lock_keys (session_id, key)
      SELECT s.id, ${loader.randomKey} FROM chatkeep.sessions s WHERE NOT EXISTS (SELECT 1 FROM chatkeep.lock_keys k WHERE k.session_id = s.id)
      ON CONFLICT (key) DO NOTHING`);
    const [left] = (await c.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM chatkeep.sessions s WHERE NOT EXISTS (SELECT 1 FROM chatkeep.lock_keys k WHERE k.session_id = s.id)',
    )).rows;
    if (left!.n === 0) return;
  }
}

/** The indexes made again, the trigram one on one connection and the rest on the other at once. */
export async function buildIndexes(loader: Loader): Promise<void> {
  const [a, b] = loader.clients;
  // Without pg_trgm, each message's sequences as search-rows.ts computes them.
  if (!loader.indexes.some((i) => i.name.endsWith('search_messages_trgm'))) {
    await a.query(`UPDATE chatkeep.search_messages m SET grams = array_to_tsvector(ARRAY(
      SELECT DISTINCT substr(m.folded, i, 3) FROM generate_series(1, char_length(m.folded) - 2) AS i)) WHERE char_length(m.folded) <= 60000`);
  }
  const gin = loader.indexes.filter((i) => / USING gin /.test(i.def));
  const rest = loader.indexes.filter((i) => !gin.includes(i));
  await Promise.all([
    (async () => { for (const i of gin) await a.query(i.def); })(),
    (async () => { for (const i of rest) await b.query(i.def); })(),
  ]);
}

export async function endLoad(loader: Loader): Promise<void> {
  await Promise.all(loader.clients.map((c) => c.end()));
}
