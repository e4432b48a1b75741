/**
 * 200 concurrent writers, each a session of its own appending 20 turns, every append
 * acknowledged only once fenced (INSERT under the writer's epoch) and committed
 * (docs/design.md §12), beside the floor: 200 connections each doing a bare INSERT + COMMIT of
 * the same bytes at the same concurrency. Then every session is read back: lost (an acknowledged
 * turn missing) and interleaved (a turn in another writer's session, or out of order) must be 0.
 *
 * Like for like: both sides' connections are opened (chatkeep's locks taken) before any clock
 * starts, each round starts from a CHECKPOINT (a checkpoint's flushing, and the full-page images
 * every first change of a page writes after it, land in neither side's round by chance), and the
 * rounds alternate floor, chatkeep, chatkeep, floor, so that a drift of the machine's load
 * weighs on both alike. Each round is `TURNS` turns per writer; the figures pool every round's.
 */
import type pg from 'pg';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import type { SessionEvent } from '../../src/session/format/store.js';
import { percentile, type Workload } from './workload.js';
import { serverCpuMs } from './server-cpu.js';
import { addWal, NO_WAL, walNow, walPer, walSettled, type WalUse } from './wal-use.js';

export const WRITERS = 200;
export const TURNS = 20;
/** The sides' rounds, in this order (ROUNDS each). */
const ORDER = ['floor', 'chatkeep', 'chatkeep', 'floor'] as const;
export const ROUNDS = ORDER.filter((s) => s === 'chatkeep').length;

/** The turn `k` of writer `w`: who wrote it is in its text, padded to a usual message's size. */
export const turnText = (w: number, k: number): string => `writer ${w} turn ${k} `.padEnd(400, 'journal of a turn ');

/** A side's writers, ready: `round(r)` appends turns r·TURNS+1 … (r+1)·TURNS of every writer, all at once. */
interface Side {
  round(r: number): Promise<number[]>;
  /** Growth of its table per message, once every round has run; then its connections are closed. */
  finish(): Promise<number>;
}

/**
 * `serverCpuUs`: the server's CPU per append (server-cpu.ts); `clientCpuUs`: this process's, its
 * writers' side of each append (the bench and the server share the machine's cores, so what the
 * client spends is taken from the server); `wal`: the log's records, bytes, full-page images and
 * flushes per append (wal-use.ts), which the machine's load does not move.
 */
export type WritersResult = Workload & { serverCpuUs: number; clientCpuUs: number; wal: WalUse };

/** Runs the writers' rounds, chatkeep's and the floor's, in ORDER, each after a CHECKPOINT. */
export async function writersBesideFloor(stores: readonly PostgresStore[], admin: pg.Client, url: string): Promise<{
  ck: WritersResult & { lost: number; interleaved: number; lockP50: number; lockP99: number };
  floor: WritersResult;
}> {
  const [{ pid }] = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
  const ck = await chatkeepSide(stores, admin);
  const floor = await bareSide(url);
  const fresh = () => ({ latencies: [] as number[], wallMs: 0, cpuMs: 0, clientUs: 0, rounds: 0, wal: NO_WAL });
  const seen = { chatkeep: fresh(), floor: fresh() };
  // What taking the locks wrote reported before the first round's log counters are read (each round's, after it).
  await walSettled(admin);
  for (const side of ORDER) {
    await admin.query('CHECKPOINT');
    const s = seen[side];
    const wal = await walNow(admin);
    const cpu = serverCpuMs(pid);
    const client = process.cpuUsage();
    const start = performance.now();
    s.latencies.push(...(await (side === 'chatkeep' ? ck.side : floor).round(s.rounds++)));
    s.wallMs += performance.now() - start;
    const used = process.cpuUsage(client);
    s.clientUs += used.user + used.system;
    s.cpuMs += serverCpuMs(pid) - cpu;
    s.wal = addWal(s.wal, wal, await walSettled(admin));
  }
  const figures = (s: typeof seen.floor, bytesPerMessage: number): WritersResult => ({
    ...summary(s.latencies, s.wallMs),
    bytesPerMessage,
    serverCpuUs: (s.cpuMs * 1000) / s.latencies.length,
    clientCpuUs: s.clientUs / s.latencies.length,
    wal: walPer(s.wal, s.latencies.length),
  });
  return { ck: { ...figures(seen.chatkeep, await ck.side.finish()), ...(await ck.check()), lockP50: ck.lockP50, lockP99: ck.lockP99 }, floor: figures(seen.floor, await floor.finish()) };
}

/** chatkeep's fenced appends; `stores` are members' stores, writer `w` uses `stores[w % length]`. */
async function chatkeepSide(stores: readonly PostgresStore[], admin: pg.Client): Promise<{ side: Side; check(): Promise<{ lost: number; interleaved: number }>; lockP50: number; lockP99: number }> {
  const ids: string[] = [];
  // Sessions opened 10 at a time (not measured): 200 logins at once overrun the pools' connect timeout on a busy machine.
  const sessions: { lock: Awaited<ReturnType<PostgresStore['lock']>>; log: Awaited<ReturnType<PostgresStore['openLog']>> }[] = [];
  // Taking a lock readies its connection's append (event-log.ts): measured, so that what moved there shows.
  const taking: number[] = [];
  for (let w0 = 0; w0 < WRITERS; w0 += 10) {
    await Promise.all(Array.from({ length: Math.min(10, WRITERS - w0) }, async (_, j) => {
      const w = w0 + j;
      const store = stores[w % stores.length]!;
      const id = await store.reserveId(new Date(Date.UTC(2026, 10, 3) + w * 1000), store.project);
      ids[w] = id;
      const at = performance.now();
      const lock = await store.lock(id, () => undefined);
      sessions[w] = { lock, log: await store.openLog(id, lock) };
      taking.push(performance.now() - at);
    }));
  }
  const before = await eventsBytes(admin);
  const side: Side = {
    round: (r) => allWriters(async (w, k) => {
      const event: SessionEvent = { seq: k, ts: new Date().toISOString(), type: 'message', payload: { role: 'user', content: turnText(w, k) } };
      await sessions[w]!.log.append(event, true);
    }, r),
    async finish() {
      const bytes = (await eventsBytes(admin)) - before;
      for (const { lock, log } of sessions) {
        await log.close();
        await lock.release();
      }
      return bytes / (WRITERS * TURNS * ROUNDS);
    },
  };
  return { side, check: () => readBack(admin, ids), lockP50: percentile(taking, 0.5), lockP99: percentile(taking, 0.99) };
}

/** Every writer's turns of round `r` (writer `w`'s turn `k` by `append(w, k)`), all writers at once: each acknowledged append's time. */
async function allWriters(append: (w: number, k: number) => Promise<unknown>, r: number): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
    for (let k = r * TURNS + 1; k <= (r + 1) * TURNS; k++) {
      const at = performance.now();
      await append(w, k);
      latencies.push(performance.now() - at);
    }
  }));
  return latencies;
}

/** Read back as the admin: each session must hold its writer's turns, in order, and nothing else. */
async function readBack(admin: pg.Client, ids: readonly string[]): Promise<{ lost: number; interleaved: number }> {
  const stored = await admin.query<{ session_id: string; content: string }>(
    "SELECT session_id, payload->>'content' AS content FROM chatkeep.events WHERE session_id = ANY($1) ORDER BY session_id, seq",
    [ids],
  );
  const bySession = new Map<string, string[]>();
  for (const r of stored.rows) bySession.set(r.session_id, [...(bySession.get(r.session_id) ?? []), r.content]);
  let lost = 0;
  let interleaved = 0;
  ids.forEach((id, w) => {
    const got = bySession.get(id) ?? [];
    for (let k = 1; k <= TURNS * ROUNDS; k++) if (!got.includes(turnText(w, k))) lost++;
    got.forEach((content, i) => {
      if (content !== turnText(w, i + 1)) interleaved++;
    });
  });
  return { lost, interleaved };
}

/** The floor: `WRITERS` connections, each INSERT + COMMIT of the same bytes into a logged table of its own shape. */
async function bareSide(url: string): Promise<Side> {
  const { default: pgModule } = await import('pg');
  const clients: pg.Client[] = [];
  for (let w = 0; w < WRITERS; w++) {
    const c = new pgModule.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
  }
  const table = 'public.scale_floor_events';
  await clients[0]!.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (session_id text, seq bigint, ts timestamptz, type text, payload json, PRIMARY KEY (session_id, seq))`);
  return {
    round: (r) => allWriters((w, k) =>
      clients[w]!.query(`INSERT INTO ${table} VALUES ($1, $2, $3, 'message', $4)`, [`w${w}`, k, new Date().toISOString(), JSON.stringify({ role: 'user', content: turnText(w, k) })]), r),
    async finish() {
      const [size] = (await clients[0]!.query<{ bytes: string }>(`SELECT pg_total_relation_size('${table}') AS bytes`)).rows;
      await clients[0]!.query(`DROP TABLE ${table}`);
      await Promise.all(clients.map((c) => c.end()));
      return Number(size!.bytes) / (WRITERS * TURNS * ROUNDS);
    },
  };
}

async function eventsBytes(admin: pg.Client): Promise<number> {
  const [r] = (await admin.query<{ bytes: string }>("SELECT pg_total_relation_size('chatkeep.events') AS bytes")).rows;
  return Number(r!.bytes);
}

export function summary(latencies: number[], wallMs: number): Omit<Workload, 'bytesPerMessage'> {
  return { perSecond: (latencies.length / wallMs) * 1000, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), wallMs };
}
