/**
 * Loading = snapshot + the journal after its seq (docs/design.md §4): each event past the snapshot is
 * applied by `applyEvent`, the one place an event has its effect; events a newer build wrote
 * are kept in the snapshot and skipped.
 */
import { applyEvent, streamedCallId, type PendingReplies } from './apply-event.js';
import { decodeEvent, type SessionEvent } from './events.js';
import type { FutureEvent, Message, SessionSnapshot } from './data.js';

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
  for (const event of events) {
    if (event.seq <= savedSeq) continue;
    applied++;
    lastSeq = Math.max(lastSeq, event.seq);
    if (applyEvent(s, decodeEvent(event), replies)) recoveredMessages++;
  }
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
  const kept = future.filter((e) => e.seq > savedSeq);
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
