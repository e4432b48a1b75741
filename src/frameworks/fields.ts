/**
 * chatkeep's message fields a framework item maps to: what every reader of a session
 * understands (listings, search, exports, titles, chatkeep's own REPL).
 */
import type { NewMessage, ToolCall, Usage } from '../session/data.js';

/** One part of a message's content (issue 19 item 3). */
export type Part =
  | { type: 'text'; text: string }
  | { type: 'refusal'; text: string }
  | { type: 'image'; url?: string; data?: string; mediaType?: string; detail?: string }
  | { type: 'reasoning'; text: string; signature?: string; data?: string; provider?: string }
  | { type: 'native'; provider?: string; item: unknown };

/** The fields an item maps to. */
export interface Fields {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  parts?: Part[];
  id?: string;
  name?: string;
  status?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  usage?: Usage & { details?: Record<string, unknown> };
  model?: string;
}

/** The message to append with these fields. */
export function asNewMessage(fields: Fields): NewMessage {
  return fields as unknown as NewMessage;
}

/** A stored message's fields. */
export function fieldsOfMessage(message: object): Fields {
  return message as Fields;
}

/** `{ [key]: value }` when the value is a string, else nothing: for optional fields. */
export function text<K extends string>(key: K, value: unknown): { [k in K]?: string } {
  return (typeof value === 'string' ? { [key]: value } : {}) as { [k in K]?: string };
}

/** The text of parts: text and refusal parts, joined by newlines. */
export function textOfParts(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.type === 'text' || p.type === 'refusal' ? [p.text] : [])).join('\n');
}
