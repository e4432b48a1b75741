/**
 * Events a newer chatkeep wrote (docs/design.md §4), as every store keeps them: the case
 * `storeContract` runs. A type this build does not know is not damage: the store hands it over
 * as stored, the model keeps it in the snapshot, and it outlives the compaction of its log.
 */
import { expect, it } from 'vitest';
import { loadFrom } from '../../src/session/runtime/reading.js';
import { AT, messageEvent, type Harness } from './contract-kit.js';

export function futureEventCases(h: Harness): void {
  it('keeps an event of a type it does not know exactly as stored, skips it in replay, and carries it in the snapshot', async () => {
    const store = await h.open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    await log.append(messageEvent(1, 'user', 'before'), true);
    await log.close();
    await lock.release();
    // As a later release writes it: its own payload text (spacing, 1.0e3) must come back unchanged.
    const newer = { seq: 2, ts: new Date(AT.getTime() + 2000).toISOString(), type: 'reaction', payload: '{"message": 0, "emoji": "👍", "weight": 1.0e3}' };
    const line = `{"seq":2,"ts":"${newer.ts}","type":"reaction","payload":${newer.payload}}`;
    await h.backing().writeNewerEvent(id, newer);

    const reader = await h.openOn(id);
    const stored = await reader.load(id, { now: AT, quarantine: true });
    expect(stored.damage).toEqual([]);
    expect(stored.notices).toEqual([]);
    expect(stored.events.map((e) => e.seq)).toEqual([1]);
    expect(stored.futureEvents).toEqual([{ seq: 2, ts: newer.ts, type: 'reaction', line }]);

    // The model: replay skips it, the snapshot keeps it, the next seq follows it, and it is said once.
    const holder = await h.openOn(id);
    const held = await holder.lock(id, () => undefined);
    const loaded = await loadFrom({ load: (o) => holder.load(id, o) }, id, holder.project.path, { now: AT, quarantine: true });
    expect(loaded.snapshot.messages.map((m) => m.content)).toEqual(['before']);
    expect(loaded.snapshot.futureEvents).toEqual([{ seq: 2, ts: newer.ts, type: 'reaction', line }]);
    expect(loaded.snapshot.journalSeq).toBe(2);
    expect(loaded.stored.notices).toEqual(['1 event of type reaction: written by a newer chatkeep; kept as is.']);
    const heldLog = await holder.openLog(id, held);
    await holder.writeSnapshot(id, loaded.snapshot, held);
    await heldLog.compact(2);
    await heldLog.append(messageEvent(3, 'user', 'after'), true);
    await heldLog.close();
    await held.release();

    const again = await loadFrom({ load: (o) => reader.load(id, o) }, id, reader.project.path, { now: AT, quarantine: false });
    expect(again.stored.events.map((e) => e.seq)).toEqual([3]);
    expect(again.stored.futureEvents).toEqual([]);
    expect(again.snapshot.futureEvents).toEqual([{ seq: 2, ts: newer.ts, type: 'reaction', line }]);
    expect(again.snapshot.messages.map((m) => m.content)).toEqual(['before', 'after']);
    expect(again.stored.notices).toEqual([]);
  });
}
