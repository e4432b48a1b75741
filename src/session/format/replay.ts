/**
 * Loading = snapshot + the journal after its seq (docs/design.md §4): each event past the snapshot is
 * applied by `applyEvent`, the one place an event has its effect; events a newer build wrote
 * are kept in the snapshot and skipped.
 */
import { applyEvent, streamedCallId, type PendingReplies } from '../model/apply-event.js';
import { decodeEvent, type SessionEvent } from '../model/events.js';
import { eventProblem } from './event-check.js';
import { rowLine } from '../model/future-events.js';
import type { FutureEvent, Message, SessionSnapshot } from '../api/data.js';

/** What replaying the journal over a snapshot recovered. */
export interface ReplayResult {
  /** Message events applied (including replies rebuilt from their deltas). */
  recoveredMessages: number;
  /** Events past the snapshot (those of a newer build's types included). */
  applied: number;
  /** Highest seq seen (at least the snapshot's). */
  lastSeq: number;
  /** Replies whose deltas were journaled but never finished, by reply id (rebuilt as interrupted messages). */
  unfinishedReplies: { replyId: string; message: Message }[];
  /** Events of types this build does not know, past the snapshot: now kept in it (`futureEvents`). */
  futureEvents: FutureEvent[];
}

/**
 * Applies the events past `s.journalSeq` to the snapshot, in place. Deltas of a reply that
 * never finished become one assistant message marked `interrupted`, in the place the reply
 * started. `future` (events a newer chatkeep wrote) past the snapshot are added to its
 * `futureEvents`, where the next snapshot keeps them, and count as events gone past (the seq
 * this session writes next follows them).
 */
export function replay(s: SessionSnapshot, events: readonly SessionEvent[], future: readonly FutureEvent[] = []): ReplayResult {
  let recoveredMessages = 0;
  let applied = 0;
  const savedSeq = s.journalSeq;
  let lastSeq = savedSeq;
  const replies: PendingReplies = new Map();
  const unreadable: FutureEvent[] = [];
  for (const event of events) {
    if (event.seq <= savedSeq) continue;
    // One this build cannot apply whole is kept as stored, never applied half-way (event-check.ts).
    if (eventProblem(event.type, event.ts, event.payload) !== undefined) {
      unreadable.push({ seq: event.seq, ts: event.ts, type: event.type, line: rowLine(event.seq, event.ts, event.type, JSON.stringify(event.payload)) });
      continue;
    }
    applied++;
    lastSeq = Math.max(lastSeq, event.seq);
    if (applyEvent(s, decodeEvent(event), replies)) recoveredMessages++;
  }
  const kept = [...future.filter((e) => e.seq > savedSeq), ...unreadable].sort((a, b) => a.seq - b.seq);
  // A reply finished by a message this build cannot read is finished all the same: its deltas
  // are not made into a second, interrupted copy of it.
  for (const e of kept) if (e.type === 'message') replies.delete(finishedReplyId(e.line) ?? '');
  const unfinishedReplies: ReplayResult['unfinishedReplies'] = [];
  // Insert from the last position backwards so earlier indexes stay valid.
  const ordered = [...replies.entries()].sort((a, b) => b[1].index - a[1].index);
  for (const [replyId, reply] of ordered) {
    const message: Message = { role: 'assistant', content: reply.text, timestamp: new Date(reply.ts), interrupted: true };
    // Tool calls cut short keep what arrived of them; one whose id never came is named after the reply.
    const calls = reply.calls.flatMap((c, i) => (c ? [{ ...c, id: streamedCallId(c.id, replyId, i) }] : []));
    if (calls.length > 0) message.toolCalls = calls;
    s.messages.splice(Math.min(reply.index, s.messages.length), 0, message);
    s.stats.messageCount += 1;
    recoveredMessages++;
    unfinishedReplies.unshift({ replyId, message });
  }
  if (kept.length > 0) {
    s.futureEvents = [...(s.futureEvents ?? []), ...kept];
    for (const e of kept) {
      lastSeq = Math.max(lastSeq, e.seq);
      const at = new Date(e.ts);
      if (at.getTime() > s.updatedAt.getTime()) s.updatedAt = at;
    }
    applied += kept.length;
  }
  s.journalSeq = lastSeq;
  return { recoveredMessages, applied, lastSeq, unfinishedReplies, futureEvents: kept };
}

/** The reply a stored `message` event finishes (`payload.replyId`), read from its line. */
function finishedReplyId(line: string): string | undefined {
  try {
    const id: unknown = (JSON.parse(line) as { payload?: { replyId?: unknown } }).payload?.replyId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
