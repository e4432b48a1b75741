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
import { blocksOf } from '../../src/store/postgres/search-blocks.js';

/** The tables whose non-constraint indexes are dropped for a load and built after it. */
const INDEXED = ['sessions', 'search_messages'];

export interface Loader {
  /** Three connections, each loading with triggers off: three COPY streams at once (the sessions' tables, two halves of the messages). */
  clients: [pg.Client, pg.Client, pg.Client];
  /** The indexes dropped, to be made again by `finishLoad`. */
  indexes: { name: string; def: string }[];
  /** The lock-key expression of chatkeep's trigger function. */
  randomKey: string;
}

export async function startLoad(url: string): Promise<Loader> {
  const { default: pgModule } = await import('pg');
  const open = (): pg.Client => new pgModule.Client({ connectionString: url });
  const clients: Loader['clients'] = [open(), open(), open()];
  for (const c of clients) {
    await c.connect();
    // A bench server of its own: nothing else writes while it loads, and a crash loses only the bench. 4 GB: the
    // trigram index's build (split among its parallel workers) keeps its lists in memory instead of merging runs.
    await c.query("SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '4GB'");
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

/**
 * The lock key of each session of IDs `first` to `last` (a batch), as the trigger draws it; drawn again for the few
 * that collide. Within the batch's IDs, not the whole table: a batch's cost stays the same as the server grows.
 */
export async function giveLockKeys(loader: Loader, first: string, last: string): Promise<void> {
  const [c] = loader.clients;
  const keyless = 'FROM chatkeep.sessions s WHERE s.id BETWEEN $1 AND $2 AND NOT EXISTS (SELECT 1 FROM chatkeep.lock_keys k WHERE k.session_id = s.id)';
  for (;;) {
    await c.query(`INSERT INTO chatkeep.lock_keys (session_id, key) SELECT s.id, ${loader.randomKey} ${keyless} ON CONFLICT (key) DO NOTHING`, [first, last]);
    const [left] = (await c.query<{ n: number }>(`SELECT count(*)::int AS n ${keyless}`, [first, last])).rows;
    if (left!.n === 0) return;
  }
}

/**
 * The search blocks of the sessions of IDs `first` to `last` (a batch), made from their messages by chatkeep's own rule, as
 * its migration and each snapshot's write make them. Memory for the batch's blocks: grouped in memory, not spilled to disk.
 */
export async function makeBlocks(loader: Loader, first: string, last: string): Promise<void> {
  const [c] = loader.clients;
  await c.query("SET work_mem = '1GB'");
  await c.query(`INSERT INTO chatkeep.search_blocks (session_id, owner, block, folded)
    ${blocksOf('(SELECT * FROM chatkeep.search_messages WHERE session_id BETWEEN $1 AND $2)')}`, [first, last]);
  await c.query('RESET work_mem');
}

/**
 * The indexes made again and every table vacuumed and analyzed, on two connections at once: the GIN indexes (the
 * trigram one is most of the time; PostgreSQL 18 builds it with parallel workers), then the messages' table; the rest,
 * then every other table of chatkeep's, while the GIN indexes build.
 */
export async function finishLoad(loader: Loader): Promise<void> {
  const [a, b] = loader.clients;
  // Without pg_trgm, each message's sequences as search-rows.ts computes them.
  if (!loader.indexes.some((i) => i.name.endsWith('search_messages_trgm'))) {
    await a.query(`UPDATE chatkeep.search_messages m SET grams = array_to_tsvector(ARRAY(
      SELECT DISTINCT substr(m.folded, i, 3) FROM generate_series(1, char_length(m.folded) - 2) AS i)) WHERE char_length(m.folded) <= 60000`);
  }
  const gin = loader.indexes.filter((i) => / USING gin /.test(i.def));
  const rest = loader.indexes.filter((i) => !gin.includes(i));
  const tables = (await b.query<{ name: string }>(
    "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'chatkeep' AND tablename <> 'search_messages'",
  )).rows.map((t) => t.name);
  await Promise.all([
    (async () => {
      for (const i of gin) await a.query(i.def);
      await a.query('VACUUM ANALYZE chatkeep.search_messages');
    })(),
    (async () => {
      for (const i of rest) await b.query(i.def);
      for (const t of tables) await b.query(`VACUUM ANALYZE ${t}`);
    })(),
  ]);
}

export async function endLoad(loader: Loader): Promise<void> {
  await Promise.all(loader.clients.map((c) => c.end()));
}
