import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions } from '../../../src/index.js';
import { readJournal } from '../../../src/store/file/journal.js';
import { blankSnapshot } from '../../../src/session/format/blank.js';
import { replay } from '../../../src/session/format/replay.js';
import { applyEvent } from '../../../src/session/model/apply-event.js';
import { decodeEvent, type SessionEvent } from '../../../src/session/model/events.js';
import type { SessionSnapshot } from '../../../src/session/api/data.js';
import type { Session } from '../../../src/session/api/session-api.js';

/** Every journal line a session writes, as it writes it (a snapshot truncates the journal). */
function recordEvents(s: Session): SessionEvent[] {
  const events: SessionEvent[] = [];
  const log = (s as unknown as { log: { append(e: SessionEvent, sync: boolean): Promise<void> } }).log;
  const append = log.append.bind(log);
  log.append = (e, sync) => (events.push(structuredClone(e)), append(e, sync));
  return events;
}

/** What the events say, without what only a snapshot writer adds (host, pid, version, trigger). */
function conversation(s: SessionSnapshot): Partial<SessionSnapshot> {
  const { host: _h, pid: _p, toolVersion: _t, savedBy: _s, status: _st, format: _f, schemaVersion: _v, project: _pr, ...rest } = s;
  return rest;
}

/** A clock that moves on 7 ms with every reading: two readings never agree. */
function tickingClock(): () => Date {
  let t = Date.parse('2026-11-25T10:00:00.000Z');
  return () => new Date((t += 7));
}

describe('applyEvent: the one place an event has its effect', () => {
  it('a live session and the replay of its journal over the state it started from are deep-equal, every setter included', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), env: {}, now: tickingClock() });
    const s = await sessions.create();
    const start = s.copyState();
    const events = recordEvents(s);
    await s.append({ role: 'user', content: 'first question' });
    const reply = s.beginReply();
    await reply.push('first answer, streamed ');
    await reply.finish({ usage: { inputTokens: 3, outputTokens: 4 }, model: 'gpt-4o', toolCalls: [{ id: 'c1', name: 'grep', arguments: '{"q":"x"}' }] });
    await s.append({ role: 'tool', content: 'found', toolCallId: 'c1' });
    await s.setTitle('chosen');
    await s.setProvider({ name: 'openai', model: 'gpt-4o' }, 'command');
    await s.setConfig('temperature', { value: 0.5, source: 'flag' });
    await s.setSystemPrompt({ path: '/p/system.md', sha256: 'ab' }, 'flag');
    await s.setDraft('half typed');
    await s.append({ role: 'user', content: 'again?' });
    await s.append({ role: 'assistant', content: 'answer one' });
    await s.supersedeAnswers();
    await s.append({ role: 'assistant', content: 'answer two' });
    await s.compact('what was said', 2, { usage: { inputTokens: 1, outputTokens: 1 }, model: 'gpt-4o' });
    await s.append({ role: 'user', content: 'after the compaction' });
    await s.reset();
    await s.append({ role: 'user', content: 'after the reset' });
    const live = s.copyState();
    await s.close();

    // The automatic title (from the first user message) is journaled before the next durable event;
    // the first reply that names its model records it as the session's assistant (none was chosen).
    expect(events.map((e) => e.type)).toEqual([
      'message', 'delta', 'title', 'message', 'provider', 'message', 'title', 'provider', 'config', 'system', 'draft', 'message', 'message', 'supersede', 'message', 'reset',
      'message', 'reset', 'message',
    ]);
    const replayed = structuredClone(start);
    replay(replayed, events);
    expect(conversation(replayed)).toEqual(conversation({ ...live, journalSeq: replayed.journalSeq }));
    expect(replayed.messages.map((m) => m.content)).toEqual(['after the reset']);
    expect(replayed.archived.flatMap((a) => a.messages.map((m) => m.content))).toEqual([
      'first question', 'first answer, streamed ', 'found', 'again?', 'answer one', 'answer two', 'after the compaction',
    ]);
  });

  it("takes a message's time once: its timestamp, its event's ts and the session's updatedAt are one instant", async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: home, env: {}, now: tickingClock() });
    const s = await sessions.create();
    const message = await s.append({ role: 'user', content: 'when?' });
    const { events } = await readJournal(join(s.where.files!.dir, 'journal.jsonl'));
    const line = events.find((e) => e.type === 'message')!;
    expect(line.ts).toBe(message.timestamp.toISOString());
    expect((line.payload.message as { timestamp: string }).timestamp).toBe(line.ts);
    expect(s.updatedAt.toISOString()).toBe(line.ts);
    // The reset's archive is dated by its event, live as on resume (the snapshot after it truncates the journal).
    const recorded = recordEvents(s);
    await s.reset();
    // (The automatic title of the first message is journaled first.)
    expect(recorded.map((e) => e.type)).toEqual(['title', 'reset']);
    expect(s.archived[0]!.archivedAt.toISOString()).toBe(recorded[1]!.ts);
    await s.close();
  });

  it('reads stored payloads leniently, as resuming always did: an old title has no source, a git line without a root says nothing', () => {
    const s = blankSnapshot('20261125-100000-aaaa', '/p', new Date('2026-11-25T10:00:00Z'));
    const at = '2026-11-25T10:00:01.000Z';
    applyEvent(s, decodeEvent({ seq: 1, ts: at, type: 'title', payload: { title: 'old' } }));
    expect([s.title, s.titleSource]).toEqual(['old', 'user']);
    applyEvent(s, decodeEvent({ seq: 2, ts: at, type: 'git', payload: { branch: 'main' } }));
    expect(s.git).toBeUndefined();
    applyEvent(s, decodeEvent({ seq: 3, ts: at, type: 'provider', payload: { name: 'echo', model: 3 } }));
    expect(s.provider).toEqual({ name: 'echo', model: null });
    applyEvent(s, decodeEvent({ seq: 4, ts: at, type: 'supersede', payload: { indexes: [0, 'x', 1.5] } }));
    applyEvent(s, decodeEvent({ seq: 5, ts: at, type: 'draft', payload: { text: '' } }));
    expect('draft' in s).toBe(false);
    expect(s.updatedAt.toISOString()).toBe(at);
  });

  it('keeps the events of a newer build in the snapshot and skips them, counting them as gone past', () => {
    const s = blankSnapshot('20261125-100000-aaaa', '/p', new Date('2026-11-25T10:00:00Z'));
    const future = [{ seq: 2, ts: '2026-11-25T10:00:02.000Z', type: 'hologram', line: '{"seq":2,"ts":"2026-11-25T10:00:02.000Z","type":"hologram","payload":{"x":1}}' }];
    const result = replay(s, [{ seq: 1, ts: '2026-11-25T10:00:01.000Z', type: 'title', payload: { title: 't', source: 'user' } }], future);
    expect(result).toMatchObject({ applied: 2, lastSeq: 2, futureEvents: future });
    expect(s.futureEvents).toEqual(future);
    expect(s.journalSeq).toBe(2);
    expect(s.title).toBe('t');
  });
});
