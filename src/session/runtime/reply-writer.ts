import { randomBytes } from 'node:crypto';
import type { Message, ToolCall } from '../api/data.js';
import type { ReplyExtra, ReplyWriter } from '../api/session-api.js';
import type { ToolCallDelta } from '../api/message-parts.js';
import { InvalidMessageError, ReplyFinishedError } from '../api/errors.js';
import { safeBoundary } from './reply-boundary.js';
import { streamedCallId } from '../model/apply-event.js';

/** A reply being streamed, as its session sees it: the text it has journaled so far (redacted). */
export interface ActiveReply {
  readonly replyId: string;
  readonly journaled: string;
  /** Its tool calls as journaled so far (empty when none was streamed). */
  readonly journaledCalls: ToolCallDelta[];
  /** The session gave the reply up (a write failed, the lock was lost): the writer takes no more, refusing with `reason`. */
  abandon(reason?: Error): void;
}

/** What a streamed reply needs from its session. */
export interface ReplyHost {
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  redact(text: string): string;
  /** Journals a piece of the reply (text, or pieces of its tool calls) without fsync (it must survive kill -9, not a power cut). */
  journalDelta(replyId: string, text: string, toolCalls?: ToolCallDelta[]): Promise<void>;
  /**
   * Journals the finished reply as one message (fdatasync'ed) and adds it to the conversation.
   * When that write fails, the host gives the reply up (`abandon`): it is in the conversation as
   * far as it was journaled, interrupted, as a resume rebuilds it.
   */
  completeReply(reply: ActiveReply, content: string, extra: ReplyExtra): Promise<Message>;
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
  // Why it takes no more, when the session gave it up (the error its writes would meet).
  let refusal: Error | undefined;
  // Tool calls being streamed, by index: what is journaled of each, and the text not journaled yet.
  const calls: { id?: string; name?: string; journaled: string; pending: string }[] = [];
  const active: ActiveReply = {
    replyId,
    get journaled() {
      return journaled;
    },
    get journaledCalls() {
      return calls.flatMap((c, index) => (c ? [{ index, ...(c.id ? { id: c.id } : {}), ...(c.name ? { name: c.name } : {}), arguments: c.journaled }] : []));
    },
    abandon: (reason) => {
      finished = true;
      refusal = reason;
    },
  };
  let streaming = false;
  const started = (): void => {
    if (!streaming) host.streaming(active, (streaming = true));
  };
  return {
    get text() {
      return text;
    },
    get stored() {
      return journaled;
    },
    push: (chunk: string) =>
      host.runExclusive(async () => {
        if (finished) throw refusal ?? new ReplyFinishedError(replyId);
        text += chunk;
        pending += chunk;
        const cut = safeBoundary(pending, 0);
        if (cut > 0) {
          const piece = host.redact(pending.slice(0, cut));
          started();
          await host.journalDelta(replyId, piece);
          journaled += piece;
          pending = pending.slice(cut);
          committed += cut;
          return piece;
        }
        return '';
      }),
    pushToolCall: (delta: ToolCallDelta) =>
      host.runExclusive(async () => {
        if (finished) throw refusal ?? new ReplyFinishedError(replyId);
        const index = delta?.index;
        if (!Number.isInteger(index) || index < 0 || index > 1000) throw new InvalidMessageError('index', 'of a tool call must be a whole number from 0 to 1000');
        const call = (calls[index] ??= { journaled: '', pending: '' });
        const piece: ToolCallDelta = { index };
        if (typeof delta.id === 'string' && delta.id !== call.id) piece.id = call.id = delta.id;
        if (typeof delta.name === 'string' && delta.name !== call.name) piece.name = call.name = delta.name;
        call.pending += typeof delta.arguments === 'string' ? delta.arguments : '';
        // Arguments are JSON, mostly without spaces: a comma ends a word there as a space does.
        const cut = safeBoundary(call.pending.replace(/,/g, ' '), 0);
        if (cut > 0) {
          piece.arguments = host.redact(call.pending.slice(0, cut));
          call.pending = call.pending.slice(cut);
        }
        if (piece.id !== undefined || piece.name !== undefined || piece.arguments !== undefined) {
          started();
          await host.journalDelta(replyId, '', [piece]);
          call.journaled += piece.arguments ?? '';
        }
        return { id: call.id ?? '', name: call.name ?? '', arguments: call.journaled } satisfies ToolCall;
      }),
    finish: (extra = {}) =>
      host.runExclusive(async () => {
        if (finished) throw refusal ?? new ReplyFinishedError(replyId);
        // The calls streamed, whole, unless the caller gives them.
        const streamed = calls.flatMap((c, i) => (c ? [{ id: streamedCallId(c.id, replyId, i), name: c.name ?? '', arguments: c.journaled + c.pending }] : []));
        if (extra.toolCalls === undefined && streamed.length > 0) extra = { ...extra, toolCalls: streamed };
        const message = await host.completeReply(active, text, extra);
        finished = true;
        host.streaming(active, false);
        return message;
      }),
  };
}
