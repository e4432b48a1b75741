/**
 * The fenced append on PostgreSQL (docs/design.md §12) as one prepared statement: on a direct
 * lock it is planned once (generically, from its first run) and kept, and fences by that plan;
 * behind PgBouncer (transaction pooling) nothing is kept on the server connection; an
 * event stored before (a write of unknown outcome sent again) counts as written, never twice.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { LockSupersededError } from '../../src/session/api/errors.js';
import type { SessionEvent } from '../../src/session/format/store.js';
import { APPEND_SQL, insertEvents } from '../../src/store/postgres/event-log.js';
import type { PgLock } from '../../src/store/postgres/lock.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { usePgBouncer } from '../helpers/use-pgbouncer.js';
import { runSql } from '../helpers/postgres.js';
import { storeEachTest } from '../helpers/store-each-test.js';
import { serverKeptPlan } from '../helpers/server-function.js';
import { AT, savedSession } from './contract-kit.js';

const turn = (seq: number, content: string, id = `ev-${seq}`): SessionEvent => ({ seq, id, ts: AT.toISOString(), type: 'message', payload: { role: 'user', content } });

describe('PostgreSQL fenced append', () => {
  const bouncer = usePgBouncer();
  const each = storeEachTest('pg-append');
  const open = (url: string): Promise<PostgresStore> => each.open(url);
  let direct: string;
  beforeEach(() => {
    direct = each.url;
  });
  /** The contents of a session's events, in order, as the database has them. */
  const stored = async (id: string): Promise<string[]> =>
    (await runSql<{ c: string }>(direct, "SELECT payload->>'content' AS c FROM chatkeep.events WHERE session_id = $1 ORDER BY seq", [id])).map((r) => r.c);


  it('a direct lock keeps its append prepared, planned once (generically) from its first run; a superseded holder still appends nothing', async () => {
    const store = await open(direct);
    const { id } = await savedSession(store, AT, ['one']);
    const lock = (await store.lock(id, () => undefined)) as PgLock;
    expect(lock.direct).toBe(true);
    const log = await store.openLog(id, lock);
    for (let seq = 1; seq <= 8; seq++) await log.append(turn(seq, `turn ${seq}`), true);
    // Each run by the one generic plan, never planned for one run's values (the server's default
    // plans the first five runs each anew).
    // The one run at the lock's taking (the warm-up, next test) and the eight appends.
    // A single event goes by its own statement (scalars, no arrays), a batch of more by the other.
    await lock.write((c) => insertEvents(c, id, [turn(9, 'turn 9', 'ev-9'), turn(10, 'turn 10', 'ev-10')], lock.epoch, true));
    const kept = await lock.write((c) => c.query("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'chatkeep_append%' ORDER BY name"));
    // The statement across sessions (group commit) ran at the warm-up only: one session appended at a time goes alone.
    expect(kept.rows).toEqual([
      { name: 'chatkeep_append', generic_plans: '2', custom_plans: '0' },
      { name: 'chatkeep_append_across', generic_plans: '1', custom_plans: '0' },
      { name: 'chatkeep_append_one', generic_plans: '9', custom_plans: '0' },
    ]);
    // New events are inserted without ON CONFLICT (no speculative insertion per row); the statement
    // that skips stored events was never needed, so never prepared.
    const statements = await lock.write((c) => c.query("SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'chatkeep_append%'"));
    expect(statements.rows.map((r: { name: string }) => r.name).sort()).toEqual(['chatkeep_append', 'chatkeep_append_across', 'chatkeep_append_one']);
    for (const r of statements.rows as { statement: string }[]) expect(r.statement).not.toMatch(/ON CONFLICT/i);

    await runSql(direct, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    await expect(log.append(turn(11, 'after the takeover'), true)).rejects.toBeInstanceOf(LockSupersededError);
    await log.close();
    expect(await stored(id)).toEqual(Array.from({ length: 10 }, (_, i) => `turn ${i + 1}`));
  });

  it('a direct lock readies its append when it is taken: prepared and run once before anything is appended, writing nothing', async () => {
    const store = await open(direct);
    const { id } = await savedSession(store, AT, ['one']);
    const before = await stored(id);
    const listed = async (): Promise<unknown[]> =>
      runSql(direct, 'SELECT updated_at, journal_seq, message_count FROM chatkeep.sessions WHERE id = $1', [id]);
    const row = await listed();
    const lock = (await store.lock(id, () => undefined)) as PgLock;
    // Before the first append: the statement is on the connection, planned (generically) and run
    // once, so the first acknowledged message does not pay the connection's first run.
    const ready = await lock.write((c) => c.query("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'chatkeep_append%' ORDER BY name"));
    expect(ready.rows).toEqual([
      { name: 'chatkeep_append', generic_plans: '1', custom_plans: '0' },
      { name: 'chatkeep_append_across', generic_plans: '1', custom_plans: '0' },
      { name: 'chatkeep_append_one', generic_plans: '1', custom_plans: '0' },
    ]);
    expect(await stored(id)).toEqual(before);
    expect(await listed()).toEqual(row);
    const log = await store.openLog(id, lock);
    await log.append(turn(before.length + 1, 'the first'), true);
    await log.close();
    expect(await stored(id)).toEqual([...before, 'the first']);
  });

  it('transaction pooling: eight writers appending at once share six server connections (a statement kept on one would fail another): every append is stored', async () => {
    await open(direct); // creates the schema
    const store = await open(bouncer.url(direct));
    const writers = await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        const { id } = await savedSession(store, new Date(AT.getTime() + w * 1000), [`w${w}`]);
        const lock = (await store.lock(id, () => undefined)) as PgLock;
        return { id, lock, log: await store.openLog(id, lock) };
      }),
    );
    expect(writers.map((w) => w.lock.direct)).toEqual(Array(8).fill(false));
    for (let seq = 1; seq <= 6; seq++) await Promise.all(writers.map((w, i) => w.log.append(turn(seq, `w${i} ${seq}`), true)));
    for (const w of writers) await w.log.close();
    for (const [i, w] of writers.entries()) expect(await stored(w.id)).toEqual(Array.from({ length: 6 }, (_, k) => `w${i} ${k + 1}`));
  });

  it('behind PgBouncer each append is one call of the server\'s append function, whose plan the server connection keeps; a superseded holder still appends nothing', async () => {
    const store = await open(direct); // creates the schema
    // Counted by the server: set before PgBouncer opens its server connections to this database.
    await runSql(direct, `ALTER DATABASE ${new URL(direct).pathname.slice(1)} SET track_functions = 'pl'`);
    const { id } = await savedSession(store, AT, ['one']);
    const pooled = await open(bouncer.url(direct));
    const lock = (await pooled.lock(id, () => undefined)) as PgLock;
    expect(lock.direct).toBe(false);
    const log = await pooled.openLog(id, lock);
    for (let seq = 2; seq <= 6; seq++) await log.append(turn(seq, `turn ${seq}`), true);
    // A backend reports what it counted once idle: asked until all five calls show.
    const calls = async (): Promise<unknown[]> =>
      runSql(direct, "SELECT calls::int FROM pg_stat_user_functions WHERE schemaname = 'chatkeep' AND funcname = 'append_events'");
    for (let i = 0; i < 100 && JSON.stringify(await calls()) !== '[{"calls":5}]'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await calls()).toEqual([{ calls: 5 }]);

    await runSql(direct, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    await expect(log.append(turn(7, 'after the takeover'), true)).rejects.toBeInstanceOf(LockSupersededError);
    await log.close();
    expect(await stored(id)).toEqual(Array.from({ length: 5 }, (_, i) => `turn ${i + 2}`));
  });

  it("the server's append function runs this build's append, with the setting that keeps its plan generic (a build that changes it replaces it by a migration)", async () => {
    await open(direct); // creates the schema
    const fn = await serverKeptPlan(direct, 'append_events');
    expect(fn.prosrc).toContain(APPEND_SQL);
    expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);
  });

  it('a batch sent again after it was stored counts as written, once; from a superseded holder too; a new event from one is refused', async () => {
    const store = await open(direct);
    const { id } = await savedSession(store, AT, ['one']);
    const lock = (await store.lock(id, () => undefined)) as PgLock;
    const first = [turn(1, 'first'), turn(2, 'second')];
    await lock.write((c) => insertEvents(c, id, first, lock.epoch, true));
    // Sent again with one more (the answer to the first was lost): the stored two are not stored twice.
    await lock.write((c) => insertEvents(c, id, [...first, turn(3, 'third')], lock.epoch, true));
    expect(await stored(id)).toEqual(['first', 'second', 'third']);
    // The resend met its stored events (the new-events statement failed, storing nothing), and the
    // statement that skips them stored the third.
    const again = await lock.write((c) => c.query("SELECT generic_plans FROM pg_prepared_statements WHERE name = 'chatkeep_append_again'"));
    expect(again.rows).toEqual([{ generic_plans: '1' }]);
    // One event sent again goes by the single event's statement, and the same way.
    await lock.write((c) => insertEvents(c, id, [turn(3, 'third')], lock.epoch, true));
    expect(await stored(id)).toEqual(['first', 'second', 'third']);
    const twice = await lock.write((c) => c.query("SELECT generic_plans FROM pg_prepared_statements WHERE name = 'chatkeep_append_again'"));
    expect(twice.rows).toEqual([{ generic_plans: '2' }]);

    await runSql(direct, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [id]);
    // What is stored is stored, whoever asks; anything new from the old epoch is not.
    await lock.write((c) => insertEvents(c, id, first, lock.epoch, true));
    await lock.write((c) => insertEvents(c, id, [turn(3, 'third')], lock.epoch, true));
    await expect(lock.write((c) => insertEvents(c, id, [turn(3, 'third'), turn(4, 'fourth')], lock.epoch, true))).rejects.toBeInstanceOf(LockSupersededError);
    expect(await stored(id)).toEqual(['first', 'second', 'third']);
  });
});
