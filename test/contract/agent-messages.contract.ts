/**
 * An agent's messages (docs/design.md §15), as every store keeps them: the case `storeContract`
 * runs. Every field (parts, reasoning with its signature, metadata with a `__proto__` key,
 * native items, usage details) comes back from the event log and from the snapshot, field for field.
 */
import { expect, it } from 'vitest';
import { loadFrom } from '../../src/session/runtime/reading.js';
import { encodeMessage, storedMessage } from '../../src/session/model/message-codec.js';
import type { NewMessage } from '../../src/session/api/data.js';
import { AT, event, snapshotOf, type Harness } from './contract-kit.js';

const keep = (text: string): string => text;

const GIVEN: NewMessage[] = [
  { role: 'system', content: 'Be careful.' },
  { role: 'user', content: [{ type: 'text', text: 'this?' }, { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }], metadata: JSON.parse('{"__proto__": {"x": 1}, "n": 1.5}') as Record<string, number> },
  {
    role: 'assistant', content: 'A cat.', provider: 'anthropic', id: 'msg_1', model: 'claude-x',
    parts: [{ type: 'reasoning', text: 'hm', signature: 'sig' }, { type: 'text', text: 'A cat.' }],
    toolCalls: [{ id: 't1', name: 'look', arguments: { deep: [1, { a: null }] } }],
    usage: { inputTokens: 2, outputTokens: 3, details: { cache_read: 1 } },
  },
  { role: 'tool', content: 'seen', toolCallId: 't1', name: 'look', status: 'completed', native: { type: 'function_call_result', callId: 't1', output: { type: 'text', text: 'seen' } } },
];

export function agentMessageCases(h: Harness): void {
  it("keeps every field of an agent's messages, in its events and in its snapshot", async () => {
    const store = await h.open();
    const id = await store.reserveId(AT, store.project);
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    const messages = GIVEN.map((m, i) => storedMessage(m, keep, new Date(AT.getTime() + i * 1000)));
    for (const [i, m] of messages.entries()) await log.append(event(i + 1, 'message', { message: encodeMessage(m) }), true);
    // A snapshot holding the first two; the other two only in the log.
    const snapshot = snapshotOf(id, store.project.path, 2, []);
    snapshot.messages = messages.slice(0, 2);
    snapshot.stats.messageCount = 2;
    await store.writeSnapshot(id, snapshot, lock);
    await log.close();
    await lock.release();

    const reader = await h.openOn(id);
    const loaded = await loadFrom({ load: (o) => reader.load(id, o) }, id, store.project.path, { now: AT, quarantine: false });
    expect(loaded.snapshot.messages).toEqual(messages);
    expect(Object.keys(loaded.snapshot.messages[1]!.metadata!)).toEqual(['__proto__', 'n']);
    expect(loaded.snapshot.schemaVersion).toBe(3);
  });
}
