/**
 * A message's one codec: what a message may hold (the schema's `message`), how one given to the
 * library is checked and cleaned (`storedMessage`), and how it is written to and read back from
 * the journal (`encodeMessage`, `decodeMessage`). Every other place takes a `Message` as it is.
 */
import { InvalidMessageError } from './errors.js';
import type { Message, NewMessage, Role, ToolCall, Usage } from './types.js';

/** A message as journaled: the timestamp as an ISO string. */
export type JournaledMessage = Omit<Message, 'timestamp'> & { timestamp: string };

const ROLES: readonly Role[] = ['user', 'assistant', 'tool'];

/**
 * A message as stored: validated (an `InvalidMessageError` says what is wrong), timestamped
 * (`at` when it has no time of its own), with secrets redacted from its content and its tool
 * calls' arguments, and no undefined fields (so the snapshot encoder's fast path applies).
 */
export function storedMessage(input: NewMessage, redact: (text: string) => string, at: Date): Message {
  if (typeof input !== 'object' || input === null) throw new InvalidMessageError('message', 'must be an object');
  if (!ROLES.includes(input.role)) throw new InvalidMessageError('role', `must be ${ROLES.join(', ')}, not ${JSON.stringify(input.role) ?? 'undefined'}`);
  if (typeof input.content !== 'string') throw new InvalidMessageError('content', 'must be a string');
  if (input.timestamp !== undefined && !(input.timestamp instanceof Date && !Number.isNaN(input.timestamp.getTime()))) {
    throw new InvalidMessageError('timestamp', 'must be a valid Date');
  }
  const message: Message = { role: input.role, content: redact(input.content), timestamp: input.timestamp ?? at };
  if (input.toolCalls !== undefined) message.toolCalls = toolCalls(input.toolCalls, redact);
  if (input.toolCallId !== undefined) message.toolCallId = string(input.toolCallId, 'toolCallId');
  if (input.usage !== undefined) message.usage = usage(input.usage, 'usage');
  if (input.interrupted) message.interrupted = true;
  if (input.superseded) message.superseded = true;
  if (typeof input.model === 'string' && input.model !== '') message.model = input.model;
  return message;
}

function string(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new InvalidMessageError(field, 'must be a string');
  return v;
}

function usage(v: unknown, field: string): Usage {
  const u = v as Partial<Usage> | null;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (typeof u !== 'object' || u === null || !count(u.inputTokens) || !count(u.outputTokens)) {
    throw new InvalidMessageError(field, 'must be {inputTokens, outputTokens}, whole numbers ≥ 0');
  }
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens };
}

/** Tool calls as stored: `arguments` given as an object is kept as its JSON text, never as "[object Object]". */
function toolCalls(v: unknown, redact: (text: string) => string): ToolCall[] {
  if (!Array.isArray(v)) throw new InvalidMessageError('toolCalls', 'must be an array');
  return v.map((c: unknown, i) => {
    const call = c as Partial<Record<keyof ToolCall, unknown>> | null;
    if (typeof call !== 'object' || call === null) throw new InvalidMessageError(`toolCalls[${i}]`, 'must be an object');
    const args = call.arguments === undefined ? '{}' : typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    if (typeof args !== 'string') throw new InvalidMessageError(`toolCalls[${i}].arguments`, 'must be a JSON string or a JSON value');
    return { id: string(call.id, `toolCalls[${i}].id`), name: string(call.name, `toolCalls[${i}].name`), arguments: redact(args) };
  });
}

/** A message as a journal payload. */
export function encodeMessage(m: Message): JournaledMessage {
  return { ...m, timestamp: m.timestamp.toISOString() };
}

/**
 * A journaled message as read back (lenient: what does not fit is left out, never damage).
 * The journal holds only what `storedMessage` made; this drops whatever else a line carries.
 */
export function journaledFrom(raw: unknown): JournaledMessage {
  const m = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const out: JournaledMessage = { role: m.role as Role, content: String(m.content ?? ''), timestamp: String(m.timestamp) };
  if (Array.isArray(m.toolCalls)) out.toolCalls = m.toolCalls as ToolCall[];
  if (typeof m.toolCallId === 'string') out.toolCallId = m.toolCallId;
  if (m.usage) out.usage = m.usage as Usage;
  if (m.interrupted) out.interrupted = true;
  if (m.superseded) out.superseded = true;
  if (typeof m.model === 'string') out.model = m.model;
  return out;
}

/** A journaled message as the model's message (its time a Date). */
export function decodeMessage(m: JournaledMessage): Message {
  return { ...m, timestamp: new Date(m.timestamp) };
}

const count = { type: 'integer', minimum: 0 } as const;

/** JSON Schema of a message in a snapshot's `json` part (its Date an ISO string: `isoDate`). */
export function messageSchema<D>(isoDate: D) {
  return {
    type: 'object',
    required: ['role', 'content', 'timestamp'],
    properties: {
      role: { enum: ['user', 'assistant', 'tool'] },
      content: { type: 'string' },
      timestamp: isoDate,
      toolCalls: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'name', 'arguments'],
          properties: { id: { type: 'string' }, name: { type: 'string' }, arguments: { type: 'string' } },
        },
      },
      toolCallId: { type: 'string' },
      usage: {
        type: 'object',
        required: ['inputTokens', 'outputTokens'],
        properties: { inputTokens: count, outputTokens: count },
      },
      interrupted: { type: 'boolean' },
      superseded: { type: 'boolean' },
      model: { type: 'string' },
    },
  } as const;
}
