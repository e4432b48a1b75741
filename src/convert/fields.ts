/**
 * chatkeep's message fields a framework item maps to: what every reader of a session
 * understands (listings, search, exports, titles, chatkeep's own REPL).
 */
import type { Message } from '../session/api/data.js';

/** The fields an item maps to (all a message has but its time, its native item and chatkeep's own marks). */
export type Fields = Pick<Message, 'role' | 'content' | 'parts' | 'id' | 'name' | 'status' | 'toolCalls' | 'toolCallId' | 'usage' | 'model' | 'provider'>;

/** `{ [key]: value }` when the value is a string, else nothing: for optional fields. */
export function text<K extends string>(key: K, value: unknown): { [k in K]?: string } {
  return (typeof value === 'string' ? { [key]: value } : {}) as { [k in K]?: string };
}
