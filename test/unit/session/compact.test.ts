import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptByCompaction, messagesToSend, openSessions, type Message, type Session } from '../../../src/index.js';
import { SUMMARY_INTRO } from '../../../src/session/model/compaction.js';
import type { JournalEvent } from '../../../src/store/file/journal.js';
import { archiveConversation } from '../../../src/session/model/apply-event.js';
import { replay } from '../../../src/session/format/replay.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';

async function twoExchanges(session: Session): Promise<void> {
  await session.append({ role: 'user', content: 'first question' });
  await session.append({ role: 'assistant', content: 'first answer', usage: { inputTokens: 10, outputTokens: 5 }, model: 'gpt-4o' });
  await session.append({ role: 'user', content: 'second question' });
  await session.append({ role: 'assistant', content: 'second answer', usage: { inputTokens: 30, outputTokens: 7 }, model: 'gpt-4o' });
}

const contents = (messages: readonly Message[]): string[] => messages.map((m) => m.content);

describe('compaction in the session model', () => {
  it('archives all but the kept messages as /reset does, stores the summary (redacted) and splits the counters', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    await twoExchanges(s);
    await s.compact('we spoke; key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789', 2, { usage: { inputTokens: 40, outputTokens: 9 }, model: 'gpt-4o' });
    expect(s.summary).toBe('we spoke; key [REDACTED:anthropic-key]');
    expect(contents(s.messages)).toEqual(['second question', 'second answer']);
    expect(s.stats).toEqual({ messageCount: 2, inputTokens: 30, outputTokens: 7, byModel: [{ model: 'gpt-4o', inputTokens: 30, outputTokens: 7 }] });
    expect(s.archived).toHaveLength(1);
    expect(contents(s.archived[0]!.messages)).toEqual(['first question', 'first answer']);
    // The summary's own cost goes with what it summarised: the session's totals still add up.
    expect(s.archived[0]!.stats).toEqual({ messageCount: 2, inputTokens: 50, outputTokens: 14, byModel: [{ model: 'gpt-4o', inputTokens: 50, outputTokens: 14 }] });
    expect(s.archived[0]!.summary).toBeNull();
    // The model gets the summary first, then the live messages.
    const sent = messagesToSend(s.messages, s.summary);
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', `${SUMMARY_INTRO}we spoke; key [REDACTED:anthropic-key]`],
      ['user', 'second question'],
      ['assistant', 'second answer'],
    ]);
    // A second compaction archives the next part with the summary it had.
    await s.append({ role: 'user', content: 'third question' });
    await s.append({ role: 'assistant', content: 'third answer' });
    await s.compact('all of it', keptByCompaction(s.messages));
    expect(s.archived.map((a) => [a.summary, contents(a.messages)])).toEqual([
      [null, ['first question', 'first answer']],
      ['we spoke; key [REDACTED:anthropic-key]', ['second question', 'second answer']],
    ]);
    await simulateCrash(s);
    const again = await sessions.resume(s.id);
    expect(again.summary).toBe('all of it');
    expect(contents(again.messages)).toEqual(['third question', 'third answer']);
    expect(again.archived.flatMap((a) => contents(a.messages))).toHaveLength(4);
    await again.close();
    expect((await sessions.read(s.id)).summary).toBe('all of it');
  });

  it('is one `reset` event: killed after it and before the snapshot, the resume replays the compaction', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    await twoExchanges(s);
    await s.save();
    await s.compact('the summary', 2);
    const snapshotAfter = readFileSync(join(s.where.files!.dir, 'session.json'), 'utf8');
    await simulateCrash(s);
    // What the disk held between the journal line and the snapshot: the old snapshot plus that one line.
    // Titled: no automatic title event comes between the messages and the line written below.
    const reborn = await sessions.create({ title: 'reborn' });
    await twoExchanges(reborn);
    await reborn.save();
    await simulateCrash(reborn);
    const event = { seq: reborn.copyState().journalSeq + 1, ts: new Date().toISOString(), type: 'reset', payload: { summary: 'the summary', keep: 2, stats: { messageCount: 2, inputTokens: 30, outputTokens: 7 } } };
    appendFileSync(join(reborn.where.files!.dir, 'journal.jsonl'), `${JSON.stringify(event)}\n`);
    const listed = (await sessions.list()).find((row) => row.id === reborn.id);
    expect(listed).toMatchObject({ messageCount: 2, usage: { inputTokens: 30, outputTokens: 7 } });
    const resumed = await sessions.resume(reborn.id);
    expect(resumed.summary).toBe('the summary');
    expect(contents(resumed.messages)).toEqual(['second question', 'second answer']);
    expect(contents(resumed.archived[0]!.messages)).toEqual(['first question', 'first answer']);
    await resumed.close();
    expect(snapshotAfter).toContain('"summary":"the summary"');
  });

  it('an older chatkeep, which reads the event as a plain /reset, archives everything and loses nothing; a listing reads the live counters', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {} });
    const s = await sessions.create();
    await twoExchanges(s);
    const before = s.copyState();
    // The journal is truncated by the snapshot that follows: record the lines as they are written.
    const events: JournalEvent[] = [];
    const journal = (s as unknown as { log: { append(e: JournalEvent, sync: boolean): Promise<void> } }).log;
    const append = journal.append.bind(journal);
    journal.append = (e, sync) => (events.push(e), append(e, sync));
    await s.compact('the summary', 2);
    await s.close();
    // This build reads the journal line as a compaction ...
    const compacted = structuredClone(before);
    replay(compacted, events);
    expect(contents(compacted.messages)).toEqual(['second question', 'second answer']);
    // A reader without the message bodies (a listing's row) takes the live counters from the event.
    const bodiless = { ...structuredClone(before), messages: [] };
    replay(bodiless, events);
    expect(bodiless.stats).toEqual({ messageCount: 2, inputTokens: 30, outputTokens: 7, byModel: [{ model: 'gpt-4o', inputTokens: 30, outputTokens: 7 }] });
    // ... and 0.1.0's replay of a `reset` (archiveConversation, the payload unread) keeps every message, archived.
    expect(events.map((e) => e.type)).toEqual(['reset']);
    const old = structuredClone(before);
    archiveConversation(old, new Date(events[0]!.ts));
    expect([...old.archived.flatMap((a) => contents(a.messages)), ...contents(old.messages)]).toEqual(contents(before.messages));
  });

  it('keeps the last exchange live: from the last user message on', () => {
    const m = (role: Message['role'], content = ''): Message => ({ role, content, timestamp: new Date(0) });
    expect(keptByCompaction([])).toBe(0);
    expect(keptByCompaction([m('user'), m('assistant'), m('user'), m('assistant')])).toBe(2);
    expect(keptByCompaction([m('user'), m('assistant'), m('user')])).toBe(1);
    expect(keptByCompaction([m('user'), m('assistant'), m('user'), m('assistant'), m('assistant')])).toBe(3);
    expect(messagesToSend([m('user', 'a'), { ...m('assistant', 'old'), superseded: true }, m('assistant', 'b')], null).map((x) => x.content)).toEqual(['a', 'b']);
  });
});
