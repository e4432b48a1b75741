/**
 * The fenced append (docs/design.md §12) beside its floor: one event INSERTed under the writer's
 * epoch and committed, vs one INSERT + COMMIT of the same bytes on the same connection. Measured
 * on a direct connection (where the lock is an advisory lock) and through a PgBouncer in
 * transaction pooling (where it is a lease): the fence is the same conditional INSERT on both.
 */
import type { SessionEvent } from '../src/session/format/store.js';
import type { PgLock } from '../src/store/postgres/lock.js';
import { openPostgresStore } from '../src/store/postgres/store.js';
import { interpreter } from '../src/session/runtime/interpreter.js';
import { makeMessages } from './data.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';

export async function benchFencedAppend(url: string, cwd: string, label: string, options: MeasureOptions): Promise<BenchRow> {
  const store = await openPostgresStore(url, { interpreter, cwd });
  try {
    const id = await store.reserveId(new Date(), store.project);
    const lock = (await store.lock(id, () => undefined)) as PgLock;
    const log = await store.openLog(id, lock);
    // A logged table, as the events are: a temporary one would skip the WAL flush a commit pays for.
    const floor = `public.chatkeep_bench_floor_${Math.random().toString(36).slice(2, 8)}`;
    await lock.write((c) => c.query(`CREATE TABLE ${floor} (n bigint, ts timestamptz, type text, payload json)`));
    const content = makeMessages(1, 400)[0]!.content;
    let seq = 0;
    const next = (): SessionEvent => ({ seq: ++seq, ts: new Date().toISOString(), type: 'message', payload: { role: 'user', content } });
    const append = await measurePair(
      () => log.append(next(), true),
      () => lock.write((c) => c.query(`INSERT INTO ${floor} VALUES ($1, $2, $3, $4)`, [seq, new Date().toISOString(), 'message', JSON.stringify({ role: 'user', content })])),
      { runs: options.runs * 20, warmup: options.warmup * 5 },
    );
    await lock.write((c) => c.query(`DROP TABLE ${floor}`));
    await log.close();
    await lock.release();
    return row(label, 1, append.ms, append.floorMs, 1.5, { note: 'floor: INSERT + COMMIT of the same bytes, same connection' });
  } finally {
    await store.close();
  }
}
