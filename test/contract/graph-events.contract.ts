/**
 * The LangGraph saver's events (src/session/api/graph-events.ts), as every store keeps them: journaled
 * and durable before `journalGraph` resolves, kept as stored lines in the snapshot's kept events
 * (the field a chatkeep from before them keeps byte for byte), never read as messages, never
 * said to be a newer build's.
 */
import { expect, it } from 'vitest';
import { graphEvents } from '../../src/session/api/graph-events.js';
import { AT, managerOn, type Harness } from './contract-kit.js';

const payloadsOf = (events: readonly { type: string; line: string }[]): unknown[] =>
  graphEvents(events as never).map((e) => [e.type, (JSON.parse(e.line) as { payload: unknown }).payload]);

export function graphEventCases(h: Harness): void {
  it('graph events: journaled and kept through a crash and a snapshot, in order, never read as messages', async () => {
    const sessions = managerOn(await h.open(), () => AT);
    const thread = await sessions.openOrCreate('thread-7');
    const checkpoint = { ns: '', id: 'c1', checkpoint: ['json', '{"v":4,"id":"c1"}'], blobs: [{ channel: 'messages', version: 1, value: ['json', '"é \\u2028"'] }] };
    await thread.journalGraph('graph-checkpoint', checkpoint);
    await thread.journalGraph('graph-writes', { ns: '', checkpointId: 'c1', taskId: 't1', writes: [{ idx: 0, channel: 'a', value: ['bytes', 'AAE='] }] });
    // A kill -9 now: nothing was snapshotted, the journal has both; another process reads them.
    const reader = managerOn(await h.open(), () => AT);
    const crashed = await reader.read('thread-7');
    expect(crashed.messages).toEqual([]);
    expect(payloadsOf(crashed.futureEvents ?? [])).toEqual([
      ['graph-checkpoint', checkpoint],
      ['graph-writes', { ns: '', checkpointId: 'c1', taskId: 't1', writes: [{ idx: 0, channel: 'a', value: ['bytes', 'AAE='] }] }],
    ]);

    await thread.append({ role: 'user', content: 'hello' });
    await thread.save();
    await thread.journalGraph('graph-checkpoints-deleted', {});
    await thread.close();

    const again = await managerOn(await h.open(), () => AT).openOrCreate('thread-7');
    expect(again.messages.map((m) => m.content)).toEqual(['hello']);
    expect(again.resumeReport.notices).toEqual([]);
    const kept = again.copyState().futureEvents ?? [];
    expect(payloadsOf(kept).map((p) => (p as string[])[0])).toEqual(['graph-checkpoint', 'graph-writes', 'graph-checkpoints-deleted']);
    expect(kept.map((e) => e.seq).slice(0, 2)).toEqual([1, 2]);
    expect(kept[2]!.seq).toBeGreaterThan(3);
    // Each is kept as the line its journal held: what an older chatkeep keeps of an unknown type.
    for (const e of kept) expect(JSON.parse(e.line)).toMatchObject({ seq: e.seq, ts: e.ts, type: e.type });
    await again.close();
  });
}
