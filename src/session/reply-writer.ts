import { randomBytes } from 'node:crypto';
import type { Message } from './data.js';
import type { ReplyExtra, ReplyWriter } from './session-api.js';
import { ReplyFinishedError } from './errors.js';
import { safeBoundary } from './reply-boundary.js';

/** A reply being streamed, as its session sees it: the text it has journaled so far (redacted). */
export interface ActiveReply {
  readonly replyId: string;
  readonly journaled: string;
}

/** What a streamed reply needs from its session. */
export interface ReplyHost {
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  redact(text: string): string;
  /** Journals a piece of the reply without fsync (it must survive kill -9, not a power cut). */
  journalDelta(replyId: string, text: string): Promise<void>;
  /** Journals the finished reply as one message (fdatasync'ed) and adds it to the conversation. */
  completeReply(replyId: string, content: string, extra: ReplyExtra): Promise<Message>;
  /** The reply started / ended streaming: a snapshot taken meanwhile journals its text again. */
  streaming(reply: ActiveReply, active: boolean): void;
}

/**
 * A reply being streamed: text is journaled as it arrives, cut only where no secret can be
 * split (so redaction sees each one whole); on replay, deltas without their finished message
 * become one interrupted assistant message. The writer is the one owner of the reply's text.
 */
export function createReplyWriter(host: ReplyHost): ReplyWriter {
  const replyId = `r-${randomBytes(6).toString('hex')}`;
  let text = '';
  // The text not journaled yet: the cut is looked for there, and each piece is cut from it, so a
  // piece never holds on to a copy of the whole reply (a 50 MB reply held one per piece).
  let pending = '';
  let journaled = '';
  let committed = 0;
  let finished = false;
  const active: ActiveReply = {
    replyId,
    get journaled() {
      return journaled;
    },
  };
  return {
    get text() {
      return text;
    },
    push: (chunk: string) =>
      host.runExclusive(async () => {
        if (finished) throw new ReplyFinishedError(replyId);
        text += chunk;
        pending += chunk;
        const cut = safeBoundary(pending, 0);
        if (cut > 0) {
          const piece = host.redact(pending.slice(0, cut));
          if (journaled === '') host.streaming(active, true);
          await host.journalDelta(replyId, piece);
          journaled += piece;
          pending = pending.slice(cut);
          committed += cut;
        }
        return committed;
      }),
    finish: (extra = {}) =>
      host.runExclusive(async () => {
        if (finished) throw new ReplyFinishedError(replyId);
        const message = await host.completeReply(replyId, text, extra);
        finished = true;
        host.streaming(active, false);
        return message;
      }),
  };
}
