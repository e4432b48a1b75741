/**
 * Events of known types that a newer build (or another program) wrote with values this build
 * cannot apply whole, as every store keeps them. Applied half-way, a `developer` message went
 * into the snapshot, the next resume found that snapshot invalid and quarantined all of it (the
 * file store lost messages over three resumes, PostgreSQL all of them). Now each such event is
 * kept as stored and skipped, like an event of an unknown type; a resume never leaves fewer
 * messages than it found, and the snapshot it writes always reads back whole.
 */
import { expect, it } from 'vitest';
import { AT, managerOn, type Harness } from './contract-kit.js';
import { NEWER_VALUES } from '../../torture/adversary/newer-values.js';

export function newerBuildEventCases(h: Harness): void {
  it('keeps a newer build event of each known type it cannot apply whole, and never loses a message over resumes', async () => {
    const sessions = managerOn(await h.open(), () => AT);
    const session = await sessions.create();
    for (const content of ['one', 'two', 'three']) await session.append({ role: 'user', content });
    const id = session.id;
    const title = session.title;
    await session.close();

    const store = await h.openOn(id);
    const before = await store.load(id, { now: AT, quarantine: false });
    let seq = Math.max(before.snapshot?.journalSeq ?? 0, ...before.events.map((e) => e.seq));
    const ts = new Date(AT.getTime() + 60_000).toISOString();
    const newer = [
      ...NEWER_VALUES,
      // Fields this build does not know are kept with what it does know: these apply.
      { type: 'message', payload: { message: { role: 'user', content: 'with a newer field', timestamp: ts, mood: 'glad' }, priority: 1 } },
      // Another program wrote a message without a time of its own: it takes its event's.
      { type: 'message', payload: { message: { role: 'assistant', content: 'without a timestamp' } } },
    ];
    for (const e of newer) await h.backing().writeNewerEvent(id, { seq: ++seq, ts, type: e.type, payload: JSON.stringify(e.payload) });

    const expected = ['one', 'two', 'three', 'with a newer field', 'without a timestamp'];
    for (let resume = 0; resume < 3; resume++) {
      const other = managerOn(await h.openOn(id), () => AT);
      const resumed = await other.resume(id);
      expect(resumed.messages.map((m) => m.content)).toEqual(expected);
      expect(resumed.messages[4]!.timestamp.toISOString()).toBe(ts);
      expect(resumed.title).toBe(title);
      await resumed.close();
      // What the resume wrote reads back whole: no damage, the kept events still there, unapplied.
      const stored = await (await h.openOn(id)).load(id, { now: AT, quarantine: false });
      expect(stored.damage).toEqual([]);
      expect(stored.snapshotDamaged).toBe(false);
      expect(stored.snapshot?.futureEvents?.map((e) => e.type)).toEqual(NEWER_VALUES.map((e) => e.type));
      expect(JSON.parse(stored.snapshot!.futureEvents![0]!.line)).toMatchObject({ type: 'message', payload: NEWER_VALUES[0]!.payload });
    }
    const listed = await managerOn(await h.open(), () => AT).list();
    expect(listed.find((s) => s.id === id)).toMatchObject({ messageCount: expected.length });
  });
}
