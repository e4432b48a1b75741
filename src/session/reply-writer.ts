import { randomBytes } from 'node:crypto';
import type { Message, ReplyExtra, ReplyWriter } from './types.js';
import { safeBoundary } from './reply-boundary.js';

/** What a streamed reply needs from its session. */
export interface ReplyHost {
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  redact(text: string): string;
  /** Journals a piece of the reply without fsync (it must survive kill -9, not a power cut). */
  journalDelta(replyId: string, text: string): Promise<void>;
  /** Journals the finished reply as one message (fdatasync'ed) and adds it to the conversation. */
  completeReply(replyId: string, content: string, extra: ReplyExtra): Promise<Message>;
}

/**
 * A reply being streamed: text is journaled as it arrives, cut only where no secret can be
 * split (so redaction sees each one whole); on replay, deltas without their finished message
 * become one interrupted assistant message.
 */
export function createReplyWriter(host: ReplyHost): ReplyWriter {
  const replyId = `r-${randomBytes(6).toString('hex')}`;
  let text = '';
  let committed = 0;
  let finished = false;
  return {
    push: (chunk: string) =>
      host.runExclusive(async () => {
        if (finished) throw new Error('push() after finish()');
        text += chunk;
        const cut = safeBoundary(text, committed);
        if (cut > committed) {
          await host.journalDelta(replyId, host.redact(text.slice(committed, cut)));
          committed = cut;
        }
        return committed;
      }),
    finish: (extra = {}) =>
      host.runExclusive(async () => {
        if (finished) throw new Error('finish() called twice');
        const message = await host.completeReply(replyId, text, extra);
        finished = true;
        return message;
      }),
  };
}
