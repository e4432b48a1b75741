/** What a damaged snapshot still holds is read back message by message, and what is not is counted. */
import { describe, expect, it } from 'vitest';
import { encodeSnapshot } from '../../../src/session/format/codec.js';
import { blankSnapshot } from '../../../src/session/format/blank.js';
import { salvageSnapshot } from '../../../src/session/format/salvage.js';

function snapshotText(): Promise<string> {
  const s = blankSnapshot('session-20260101-000000', '/p', new Date(Date.UTC(2026, 0, 1)));
  s.messages = ['one', 'two "quoted" {braces}', 'three'].map((content, i) => ({ role: 'user' as const, content, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }));
  s.stats.messageCount = 3;
  s.journalSeq = 7;
  s.title = 'kept';
  return encodeSnapshot(s);
}

describe('salvageSnapshot', () => {
  it('reads every whole message of a snapshot cut short and counts the one cut', async () => {
    const text = await snapshotText();
    const cut = text.slice(0, text.indexOf('three') + 2);
    const salvage = salvageSnapshot(cut);
    expect(salvage.messages.map((m) => m.content)).toEqual(['one', 'two "quoted" {braces}']);
    expect(salvage.messages[1]!.timestamp).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 0, 1)));
    expect(salvage.unreadable).toBe(1);
    expect(salvage.journalSeq).toBeUndefined();
    expect(salvage.title).toBe('kept');
  });

  it('keeps the valid messages of a snapshot that parses but fails the schema, and its seq', async () => {
    const doc = JSON.parse(await snapshotText()) as { json: { messages: { role: string }[]; id: number } };
    doc.json.messages[1]!.role = 'developer';
    const salvage = salvageSnapshot(JSON.stringify(doc));
    expect(salvage.messages.map((m) => m.content)).toEqual(['one', 'three']);
    expect(salvage.unreadable).toBe(1);
    expect(salvage.journalSeq).toBe(7);
  });
});
