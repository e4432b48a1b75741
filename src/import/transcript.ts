/**
 * Building a chatkeep transcript from another tool's records, in file order: messages, tool
 * calls merged into the reply that made them, and every line that has no place in chatkeep
 * kept as it was, beside the messages it came after. Pure.
 */
import type { KeptLine, Message, ToolCall, Usage } from '../session/api/data.js';
import { PeerFileError, type PeerConversation } from './types.js';
import { isObject } from '../util/is-object.js';

/** What a format says about a conversation besides its messages. */
export type ConversationFacts = Omit<PeerConversation, 'messages' | 'kept' | 'createdAt' | 'updatedAt'> & { createdAt: Date | undefined };

export class Transcript {
  readonly messages: Message[] = [];
  readonly kept: KeptLine[] = [];
  /** The reply the next tool calls and text belong to (a tool's streamed pieces share one ID). */
  private openReply: { key: string; message: Message } | undefined;

  /** Keeps a source line uninterpreted, after the messages so far. */
  keep(line: string): void {
    this.kept.push({ at: this.messages.length, line });
  }

  user(content: string, timestamp: Date): void {
    this.openReply = undefined;
    if (content.trim() === '') return;
    this.messages.push({ role: 'user', content, timestamp });
  }

  /**
   * Adds to the assistant reply `key` when it is the last message (pieces of one reply), else
   * starts a new reply.
   */
  assistant(key: string | undefined, part: { text?: string; toolCalls?: ToolCall[]; model?: string; usage?: Usage }, timestamp: Date): void {
    const last = this.messages[this.messages.length - 1];
    const open = this.openReply;
    const text = part.text ?? '';
    const calls = part.toolCalls ?? [];
    let message: Message;
    if (open && last === open.message && (key === undefined || key === open.key)) {
      message = open.message;
      if (text.trim() !== '') message.content = message.content === '' ? text : `${message.content}\n\n${text}`;
    } else {
      if (text.trim() === '' && calls.length === 0) return;
      message = { role: 'assistant', content: text.trim() === '' ? '' : text, timestamp };
      this.messages.push(message);
      this.openReply = { key: key ?? `#${this.messages.length}`, message };
    }
    if (calls.length > 0) message.toolCalls = [...(message.toolCalls ?? []), ...calls];
    if (part.model) message.model = part.model;
    if (part.usage) message.usage = part.usage;
  }

  /** A tool's result, answering the call `callId`; what the model says after it is a new reply. */
  toolResult(callId: string, content: string, timestamp: Date): void {
    this.messages.push({ role: 'tool', content, timestamp, toolCallId: callId });
    this.openReply = undefined;
  }

  /**
   * The conversation read, from its first message's time (unless the format says when it began)
   * to its last one's; `PeerFileError(notOne)` when no message was found.
   */
  conversation(facts: ConversationFacts, notOne: string): PeerConversation {
    const first = this.messages[0];
    const last = this.messages[this.messages.length - 1];
    if (!first || !last) throw new PeerFileError(notOne);
    return { ...facts, createdAt: facts.createdAt ?? first.timestamp, updatedAt: last.timestamp, messages: this.messages, kept: this.kept };
  }
}

/** A Date from an ISO string or epoch milliseconds, else `fallback`. */
export function dateOf(value: unknown, fallback: Date): Date {
  if (typeof value !== 'string' && typeof value !== 'number') return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date;
}

/** The lines of a JSONL text, each parsed (undefined when it is not a JSON object), empty lines left out. */
export function jsonLines(text: string): { line: string; record: Record<string, unknown> | undefined }[] {
  const out: { line: string; record: Record<string, unknown> | undefined }[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined;
    }
    out.push({ line, record: isObject(record) ? record : undefined });
  }
  return out;
}

/** `value` if it is a non-empty string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** JSON text of a tool call's arguments (an object, or text a tool took as it is). */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      JSON.parse(value);
      return value;
    } catch {
      return JSON.stringify(value);
    }
  }
  return JSON.stringify(value ?? {});
}
