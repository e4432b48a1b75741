/**
 * The replies a live session is streaming, and what becomes of one it gives up (docs/design.md §4).
 * A reply whose finishing write failed, or whose session lost its lock, is stored as its deltas
 * alone, which a resume rebuilds as one interrupted message where the reply started: the live
 * conversation takes the same message in the same place, so what is stored, what was shown and
 * what is sent to the model next stay one conversation.
 */
import { streamedCallId } from '../model/apply-event.js';
import type { Message, SessionSnapshot } from '../api/data.js';
import type { ActiveReply } from './reply-writer.js';

interface Started {
  /** Where the reply goes in the conversation (the message count when its first piece was journaled). */
  index: number;
  /** When it started: a rebuilt reply's time is its first delta's. */
  ts: string;
}

export class ActiveReplies {
  private readonly replies = new Map<ActiveReply, Started>();

  /** `reply` journals its first piece now. */
  started(reply: ActiveReply, state: SessionSnapshot, at: Date): void {
    if (!this.replies.has(reply)) this.replies.set(reply, { index: state.messages.length, ts: at.toISOString() });
  }

  /** `reply` finished: its message is in the conversation. */
  ended(reply: ActiveReply): void {
    this.replies.delete(reply);
  }

  /** Those with something journaled: a snapshot taken meanwhile journals their text again past its seq. */
  journaled(): ActiveReply[] {
    return [...this.replies.keys()].filter((reply) => reply.journaled !== '' || reply.journaledCalls.length > 0);
  }

  /**
   * Gives up `only` (else every reply): each writer takes no more (refusing with `reason`), and, unless `state` is
   * undefined (a state read back from the store, which holds them already), what each journaled
   * becomes one interrupted assistant message in `state` where it started, as replay makes it.
   */
  abandon(state: SessionSnapshot | undefined, reason?: Error, only?: ActiveReply): void {
    const given = [...this.replies].filter(([reply]) => only === undefined || reply === only);
    for (const [reply] of given) {
      reply.abandon(reason);
      this.replies.delete(reply);
    }
    if (!state) return;
    // From the last place backwards, so the earlier places stay where they were (as replay inserts).
    for (const [reply, { index, ts }] of given.sort((a, b) => b[1].index - a[1].index)) {
      const calls = reply.journaledCalls.map((c) => ({ id: streamedCallId(c.id, reply.replyId, c.index), name: c.name ?? '', arguments: c.arguments ?? '' }));
      if (reply.journaled === '' && calls.length === 0) continue;
      const message: Message = { role: 'assistant', content: reply.journaled, timestamp: new Date(ts), interrupted: true };
      if (calls.length > 0) message.toolCalls = calls;
      state.messages.splice(Math.min(index, state.messages.length), 0, message);
      state.stats.messageCount += 1;
    }
  }
}
