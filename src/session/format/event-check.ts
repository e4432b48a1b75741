/**
 * Whether this build can give a stored event of a known type its whole effect. An event it
 * cannot (a newer build's role, title source or part type; a field of the wrong type) is not
 * applied half-way: it is kept as stored and skipped, as an event of an unknown type is
 * (future-events.ts), so the snapshot never holds what this build would refuse on the next
 * resume, and the build that wrote it finds it again. Each payload is held to the same rules as
 * what it becomes in the snapshot (schema.ts).
 */
import { sessionJsonSchema, isoDate } from './schema.js';
import { schemaMismatch, type Schema } from './fits-schema.js';
import type { SessionEventType } from '../model/events.js';

const props = sessionJsonSchema.properties;
const nullableString = { type: ['string', 'null'] } as const;
const count = { type: 'integer', minimum: 0 } as const;

/** A message as journaled: as in the snapshot, but a missing timestamp takes its event's time (decodeEvent). */
const journaledMessage = { ...props.messages.items, required: ['role', 'content'] };

const toolCallDelta = {
  type: 'object',
  required: ['index'],
  properties: { index: count, id: { type: 'string' }, name: { type: 'string' }, arguments: { type: 'string' } },
} as const;

/** Each known event type's payload, as this build writes it. Fields it does not name are kept (and ignored). */
const PAYLOADS: Record<SessionEventType, Schema> = {
  message: { type: 'object', required: ['message'], properties: { message: journaledMessage, replyId: { type: 'string' } } },
  delta: {
    type: 'object',
    required: ['replyId', 'text'],
    properties: { replyId: { type: 'string' }, text: { type: 'string' }, replace: { type: 'boolean' }, toolCalls: { type: 'array', items: toolCallDelta } },
  },
  reset: {
    type: 'object',
    properties: { summary: { type: 'string' }, keep: count, usage: props.messages.items.properties.usage, model: { type: 'string' }, stats: props.stats },
  },
  title: { type: 'object', required: ['title'], properties: { title: nullableString, source: props.titleSource } },
  config: { type: 'object', required: ['key', 'value'], properties: { key: { type: 'string' }, value: props.config.additionalProperties } },
  provider: { type: 'object', required: ['name', 'model'], properties: props.provider.properties },
  system: { type: 'object', required: ['ref'], properties: { ref: props.systemPrompt } },
  draft: { type: 'object', required: ['text'], properties: { text: nullableString } },
  supersede: { type: 'object', required: ['indexes'], properties: { indexes: { type: 'array', items: count } } },
  git: { type: 'object', required: ['root', 'branch', 'head'], properties: props.git.properties },
  // Kept as stored, never interpreted by the session model (graph-events.ts): any object.
  'graph-checkpoint': { type: 'object' },
  'graph-writes': { type: 'object' },
  'graph-checkpoints-deleted': { type: 'object' },
  uncompact: { type: 'object', properties: {} },
};

/**
 * What keeps this build from applying an event of a known type (`/message/role: not one of the
 * allowed values`), or undefined when it can apply all of it. `ts` must be a time too.
 */
export function eventProblem(type: SessionEventType, ts: string, payload: unknown): string | undefined {
  if (schemaMismatch(ts, isoDate) !== undefined && Number.isNaN(Date.parse(ts))) return '/ts: not a time';
  return schemaMismatch(payload, PAYLOADS[type]);
}
