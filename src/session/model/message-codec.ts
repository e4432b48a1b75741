/**
 * A message's one codec: what a message may hold (`FIELDS`, and the schema's `message`), how
 * one given to the library is checked and cleaned (`storedMessage`), and how it is written to
 * and read back from the journal (`encodeMessage`, `journaledFrom`, `decodeMessage`). Every
 * other place takes a `Message` as it is.
 */
import { InvalidMessageError } from '../api/errors.js';
import { PART_TYPES, textOf, type ContentPart, type JsonValue } from '../api/message-parts.js';
import type { Message, NewMessage, NewToolCall, Role, ToolCall, Usage } from '../api/data.js';
import { isObject } from '../../util/is-object.js';

/** A message as journaled: the timestamp as an ISO string. */
export type JournaledMessage = Omit<Message, 'timestamp'> & { timestamp: string };

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

type Redact = (text: string) => string;

const count = { type: 'integer', minimum: 0 } as const;
/** Pieces of the schema's `message`. */
const SCHEMA = {
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  toolCall: {
    type: 'object',
    required: ['id', 'name', 'arguments'],
    properties: { id: { type: 'string' }, name: { type: 'string' }, arguments: { type: 'string' } },
  },
  usage: {
    type: 'object',
    required: ['inputTokens', 'outputTokens'],
    properties: { inputTokens: count, outputTokens: count, details: { type: 'object' } },
  },
  part: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { enum: PART_TYPES },
      text: { type: 'string' },
      url: { type: 'string' },
      data: { type: 'string' },
      mediaType: { type: 'string' },
      detail: { type: 'string' },
      signature: { type: 'string' },
      provider: { type: 'string' },
      item: {},
    },
  },
} as const;
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * Every optional field of a message: how one given to `append()` is cleaned (throwing
 * `InvalidMessageError` when it cannot be), and how one read back from the journal is checked
 * (a field that fails is left out: reading is never damage).
 */
const FIELDS: { [K in Exclude<keyof Message, 'role' | 'content' | 'timestamp'>]-?: { clean(v: unknown, redact: Redact): Message[K]; read(v: unknown): boolean; schema: object; /** The schemaVersion that added it (2 when absent). */ since?: 3 } } = {
  toolCalls: { clean: (v, redact) => toolCalls(v, redact), read: Array.isArray, schema: { type: 'array', items: SCHEMA.toolCall } },
  toolCallId: { clean: (v) => string(v, 'toolCallId'), read: isString, schema: SCHEMA.string },
  usage: { clean: (v, redact) => usage(v, redact), read: (v) => isObject(v) && isCount(v.inputTokens) && isCount(v.outputTokens), schema: SCHEMA.usage },
  interrupted: { clean: (v) => flag(v, 'interrupted'), read: (v) => v === true, schema: SCHEMA.boolean },
  superseded: { clean: (v) => flag(v, 'superseded'), read: (v) => v === true, schema: SCHEMA.boolean },
  // An empty model says nothing: none is kept (as before).
  model: { clean: (v) => string(v, 'model') || undefined, read: isString, schema: SCHEMA.string },
  parts: { clean: (v, redact) => parts(v, redact), read: Array.isArray, schema: { type: 'array', items: SCHEMA.part }, since: 3 },
  id: { clean: (v) => string(v, 'id'), read: isString, schema: SCHEMA.string, since: 3 },
  name: { clean: (v) => string(v, 'name'), read: isString, schema: SCHEMA.string, since: 3 },
  status: { clean: (v) => string(v, 'status'), read: isString, schema: SCHEMA.string, since: 3 },
  provider: { clean: (v) => string(v, 'provider'), read: isString, schema: SCHEMA.string, since: 3 },
  metadata: { clean: (v, redact) => jsonObject(v, 'metadata', redact), read: isObject, schema: { type: 'object' }, since: 3 },
  // Any JSON value.
  native: { clean: (v, redact) => json(v, 'native', redact), read: (v) => v !== undefined, schema: {}, since: 3 },
};
const OPTIONAL = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
/** The fields schemaVersion 3 added (agents' messages): a message with none of them is a version-2 message. */
const SINCE_3 = OPTIONAL.filter((key) => FIELDS[key].since === 3);

/**
 * The oldest schemaVersion that holds `message`: 3 for what agents' messages added (the system
 * role, the fields above, usage details), else 2, so that builds before version 3 still read
 * every session that uses none of it.
 */
export function messageVersion(message: Message): 2 | 3 {
  if (message.role === 'system' || message.usage?.details !== undefined) return 3;
  for (const key of SINCE_3) if (message[key] !== undefined) return 3;
  return 2;
}
const KNOWN = new Set<string>(['role', 'content', 'timestamp', ...OPTIONAL]);

/**
 * A message as stored: validated (an `InvalidMessageError` names what is wrong), timestamped
 * (`at` when it has no time of its own), with secrets redacted from every text it holds, and
 * no undefined fields (so the snapshot encoder's fast path applies). A field chatkeep has no
 * place for is refused, never dropped: it belongs under `metadata`.
 */
export function storedMessage(input: NewMessage, redact: Redact, at: Date): Message {
  if (!isObject(input)) throw new InvalidMessageError('message', 'must be an object');
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) throw new InvalidMessageError(key, 'is not a message field: keep what chatkeep has no field for under `metadata`');
  }
  if (!ROLES.includes(input.role)) throw new InvalidMessageError('role', `must be ${ROLES.join(', ')}, not ${JSON.stringify(input.role) ?? 'undefined'}`);
  const timestamp = input.timestamp;
  if (timestamp !== undefined && !(timestamp instanceof Date && !Number.isNaN(timestamp.getTime()))) throw new InvalidMessageError('timestamp', 'must be a valid Date');
  let content: string;
  let given: unknown = input.parts;
  if (Array.isArray(input.content)) {
    if (given !== undefined) throw new InvalidMessageError('parts', 'cannot be given with `content` as parts');
    given = input.content;
    content = '';
  } else if (typeof input.content === 'string') {
    content = redact(input.content);
  } else {
    throw new InvalidMessageError('content', 'must be a string or an array of parts');
  }
  const message: Message = { role: input.role, content, timestamp: timestamp ?? at };
  const source: Record<string, unknown> = { ...input, parts: given };
  for (const key of OPTIONAL) {
    const value = source[key];
    if (value === undefined || value === false) continue;
    const clean = FIELDS[key].clean(value, redact);
    if (clean !== undefined) (message as unknown as Record<string, unknown>)[key] = clean;
  }
  if (Array.isArray(input.content)) message.content = textOf(message.parts ?? []);
  // A result that names no call cannot be sent back to any provider: each pairs it with its call.
  if (message.role === 'tool' && message.toolCallId === undefined) throw new InvalidMessageError('toolCallId', 'is required on a tool message: the ID of the call it answers');
  return message;
}

function string(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new InvalidMessageError(field, 'must be a string');
  return v;
}

function flag(v: unknown, field: string): true | undefined {
  if (typeof v !== 'boolean') throw new InvalidMessageError(field, 'must be true or false');
  return v || undefined;
}

function usage(v: unknown, redact: Redact): Usage {
  if (!isObject(v) || !isCount(v.inputTokens) || !isCount(v.outputTokens)) {
    throw new InvalidMessageError('usage', 'must be {inputTokens, outputTokens}, whole numbers ≥ 0');
  }
  const u: Usage = { inputTokens: v.inputTokens, outputTokens: v.outputTokens };
  if (v.details !== undefined) u.details = jsonObject(v.details, 'usage.details', redact);
  return u;
}

/** Tool calls as stored: `arguments` given as a JSON value is kept as its JSON text, never as "[object Object]". */
function toolCalls(v: unknown, redact: Redact): ToolCall[] {
  if (!Array.isArray(v)) throw new InvalidMessageError('toolCalls', 'must be an array');
  return v.map((c: unknown, i) => {
    if (!isObject(c)) throw new InvalidMessageError(`toolCalls[${i}]`, 'must be an object');
    const call = c as NewToolCall;
    const given = call.arguments === undefined ? '{}' : typeof call.arguments === 'string' ? call.arguments : JSON.stringify(json(call.arguments, `toolCalls[${i}].arguments`, keep));
    return { id: string(call.id, `toolCalls[${i}].id`), name: string(call.name, `toolCalls[${i}].name`), arguments: redact(given) };
  });
}

const keep: Redact = (text) => text;

function parts(v: unknown, redact: Redact): ContentPart[] {
  if (!Array.isArray(v)) throw new InvalidMessageError('parts', 'must be an array');
  return v.map((p: unknown, i) => part(p, `parts[${i}]`, redact));
}

function part(p: unknown, at: string, redact: Redact): ContentPart {
  if (!isObject(p) || !PART_TYPES.includes(p.type as ContentPart['type'])) throw new InvalidMessageError(`${at}.type`, `must be one of ${PART_TYPES.join(', ')}`);
  const optional = (key: string): { [k: string]: string } => (p[key] === undefined ? {} : { [key]: string(p[key], `${at}.${key}`) });
  switch (p.type as ContentPart['type']) {
    case 'text':
      return { type: 'text', text: redact(string(p.text, `${at}.text`)) };
    case 'refusal':
      return { type: 'refusal', text: redact(string(p.text, `${at}.text`)) };
    case 'image': {
      if (p.url === undefined && p.data === undefined) throw new InvalidMessageError(at, 'needs a `url` or inline `data`');
      if (p.data !== undefined && p.mediaType === undefined) throw new InvalidMessageError(`${at}.mediaType`, 'is needed with inline `data`');
      return { type: 'image', ...optional('url'), ...optional('data'), ...optional('mediaType'), ...optional('detail') };
    }
    case 'reasoning': {
      const text = string(p.text ?? '', `${at}.text`);
      const clean = redact(text);
      // A signature vouches for the text as written: once a secret is cut out of it, it no longer does.
      const signature = clean === text ? optional('signature') : {};
      return { type: 'reasoning', text: clean, ...signature, ...optional('data'), ...optional('provider') };
    }
    case 'native':
      return { type: 'native', ...optional('provider'), item: json(p.item, `${at}.item`, redact) };
  }
}

function jsonObject(v: unknown, field: string, redact: Redact): { [key: string]: JsonValue } {
  if (!isObject(v)) throw new InvalidMessageError(field, 'must be an object of JSON values');
  return json(v, field, redact) as { [key: string]: JsonValue };
}

/**
 * A copy of a JSON value with secrets redacted from its strings; anything JSON cannot hold
 * (undefined, functions, Dates, NaN, cycles) is refused. Keys are kept as own properties,
 * `__proto__` included.
 */
function json(v: unknown, field: string, redact: Redact, seen = new Set<object>()): JsonValue {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') return redact(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new InvalidMessageError(field, 'holds a number JSON cannot (NaN or Infinity)');
    return v;
  }
  if (typeof v !== 'object' || seen.has(v)) throw new InvalidMessageError(field, `holds ${seen.has(v as object) ? 'a cycle' : `a ${typeof v}`}, which JSON cannot`);
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((item, i) => json(item, `${field}[${i}]`, redact, seen));
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw new InvalidMessageError(field, 'holds an object JSON cannot (a Date, a Map, a class instance)');
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of Object.entries(v)) {
      if (item === undefined) continue;
      Object.defineProperty(out, key, { value: json(item, `${field}.${key}`, redact, seen), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

/** A message as a journal payload. */
export function encodeMessage(m: Message): JournaledMessage {
  return { ...m, timestamp: m.timestamp.toISOString() };
}

/**
 * A journaled message as read back, leniently: a known field of the wrong type is left out
 * (never damage), and a field this build does not know (a newer build wrote it) is kept.
 */
export function journaledFrom(raw: unknown): JournaledMessage {
  const m = isObject(raw) ? raw : {};
  const out = { ...m, role: m.role as Role, content: String(m.content ?? ''), timestamp: String(m.timestamp) } as JournaledMessage & Record<string, unknown>;
  for (const key of OPTIONAL) if (key in out && !FIELDS[key].read(out[key])) delete out[key];
  return out;
}

/** A journaled message as the model's message (its time a Date). */
export function decodeMessage(m: JournaledMessage): Message {
  return { ...m, timestamp: new Date(m.timestamp) };
}

/** JSON Schema of a message in a snapshot's `json` part (its Date an ISO string: `isoDate`). */
export function messageSchema(isoDate: object): { type: 'object'; required: string[]; properties: Record<string, object> } {
  return {
    type: 'object',
    required: ['role', 'content', 'timestamp'],
    properties: {
      role: { enum: ROLES },
      content: { type: 'string' },
      timestamp: isoDate,
      ...Object.fromEntries(OPTIONAL.map((key) => [key, FIELDS[key].schema])),
    },
  };
}
