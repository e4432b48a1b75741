/**
 * 200 concurrent writers, each a session of its own appending 20 turns, every append
 * acknowledged only once fenced (INSERT under the writer's epoch) and committed
 * (docs/design.md §12), beside the floor: 200 connections each doing a bare INSERT + COMMIT of
 * the same bytes at the same concurrency. Then every session is read back: lost (an acknowledged
 * turn missing) and interleaved (a turn in another writer's session, or out of order) must be 0.
 */
import type pg from 'pg';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import type { SessionEvent } from '../../src/session/format/store.js';
import { percentile, type Workload } from './workload.js';

export const WRITERS = 200;
export const TURNS = 20;

/** The turn `k` of writer `w`: who wrote it is in its text, padded to a usual message's size. */
export const turnText = (w: number, k: number): string => `writer ${w} turn ${k} `.padEnd(400, 'journal of a turn ');

/** chatkeep's fenced appends; `stores` are members' stores, writer `w` uses `stores[w % length]`. */
export async function chatkeepWriters(stores: readonly PostgresStore[], admin: pg.Client): Promise<Workload & { lost: number; interleaved: number; lockP50: number; lockP99: number }> {
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
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(sessions.map(async ({ log }, w) => {
    for (let k = 1; k <= TURNS; k++) {
      const event: SessionEvent = { seq: k, ts: new Date().toISOString(), type: 'message', payload: { role: 'user', content: turnText(w, k) } };
      const at = performance.now();
      await log.append(event, true);
      latencies.push(performance.now() - at);
    }
  }));
  const wallMs = performance.now() - start;
  const bytes = (await eventsBytes(admin)) - before;
  for (const { lock, log } of sessions) {
    await log.close();
    await lock.release();
  }
  // Read back as the admin: each session must hold its writer's 20 turns, in order, and nothing else.
  const stored = await admin.query<{ session_id: string; seq: string; content: string }>(
    "SELECT session_id, seq, payload->>'content' AS content FROM chatkeep.events WHERE session_id = ANY($1) ORDER BY session_id, seq",
    [ids],
  );
  const bySession = new Map<string, string[]>();
  for (const r of stored.rows) bySession.set(r.session_id, [...(bySession.get(r.session_id) ?? []), r.content]);
  let lost = 0;
  let interleaved = 0;
  ids.forEach((id, w) => {
    const got = bySession.get(id) ?? [];
    for (let k = 1; k <= TURNS; k++) if (!got.includes(turnText(w, k))) lost++;
    got.forEach((content, i) => {
      if (content !== turnText(w, i + 1)) interleaved++;
    });
  });
  return { ...summary(latencies, wallMs), bytesPerMessage: bytes / (WRITERS * TURNS), lost, interleaved, lockP50: percentile(taking, 0.5), lockP99: percentile(taking, 0.99) };
}

/** The floor: `WRITERS` connections, each INSERT + COMMIT of the same bytes into a logged table of its own shape. */
export async function bareWriters(url: string): Promise<Workload> {
  const { default: pgModule } = await import('pg');
  const clients: pg.Client[] = [];
  for (let w = 0; w < WRITERS; w++) {
    const c = new pgModule.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
  }
  const table = 'public.scale_floor_events';
  await clients[0]!.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (session_id text, seq bigint, ts timestamptz, type text, payload json, PRIMARY KEY (session_id, seq))`);
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(clients.map(async (c, w) => {
    for (let k = 1; k <= TURNS; k++) {
      const at = performance.now();
      await c.query(`INSERT INTO ${table} VALUES ($1, $2, $3, 'message', $4)`, [`w${w}`, k, new Date().toISOString(), JSON.stringify({ role: 'user', content: turnText(w, k) })]);
      latencies.push(performance.now() - at);
    }
  }));
  const wallMs = performance.now() - start;
  const [size] = (await clients[0]!.query<{ bytes: string }>(`SELECT pg_total_relation_size('${table}') AS bytes`)).rows;
  await clients[0]!.query(`DROP TABLE ${table}`);
  await Promise.all(clients.map((c) => c.end()));
  return { ...summary(latencies, wallMs), bytesPerMessage: Number(size!.bytes) / (WRITERS * TURNS) };
}

async function eventsBytes(admin: pg.Client): Promise<number> {
  const [r] = (await admin.query<{ bytes: string }>("SELECT pg_total_relation_size('chatkeep.events') AS bytes")).rows;
  return Number(r!.bytes);
}

export function summary(latencies: number[], wallMs: number): Omit<Workload, 'bytesPerMessage'> {
  return { perSecond: (latencies.length / wallMs) * 1000, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), wallMs };
}
