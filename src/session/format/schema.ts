/**
 * The JSON Schema of a snapshot's superjson `json` part (Dates appear as ISO strings there).
 * Committed verbatim as `schema/session.schema.json`; a unit test keeps the two identical.
 */
import { messageSchema } from '../model/message-codec.js';

export const isoDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const nullableString = { type: ['string', 'null'] } as const;
const sessionId = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' } as const;

const stats = {
  type: 'object',
  required: ['messageCount', 'inputTokens', 'outputTokens'],
  properties: {
    messageCount: count,
    inputTokens: count,
    outputTokens: count,
    // Optional: per-model token totals, absent in older files.
    byModel: {
      type: 'array',
      items: {
        type: 'object',
        required: ['model', 'inputTokens', 'outputTokens'],
        properties: { model: { type: 'string' }, inputTokens: count, outputTokens: count },
      },
    },
  },
} as const;

const message = messageSchema(isoDate);

const configSource = { enum: ['flag', 'env', 'project', 'user', 'default', 'session', 'command'] } as const;

/** Where a conversation read from another tool came from (`ImportSource`). */
const importSource = {
  type: 'object',
  required: ['tool', 'id', 'path', 'lines', 'messages'],
  properties: {
    tool: { type: 'string' },
    id: { type: 'string' },
    path: { type: 'string' },
    lines: count,
    messages: count,
    kept: { type: 'array', items: { type: 'object', required: ['at', 'line'], properties: { at: count, line: { type: 'string' } } } },
  },
} as const;

/** JSON Schema (draft-07) of `session.json`'s `json` part, schemaVersion 3. */
export const sessionJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://chatkeep.dev/schema/session.schema.json',
  title: 'chatkeep session snapshot (superjson json part), schemaVersion 3',
  type: 'object',
  required: [
    'format', 'schemaVersion', 'id', 'title', 'createdAt', 'updatedAt', 'status', 'project', 'host', 'pid',
    'toolVersion', 'provider', 'systemPrompt', 'config', 'messages', 'summary', 'archived', 'stats', 'journalSeq',
  ],
  properties: {
    format: { const: 'chatkeep.session' },
    schemaVersion: { const: 3 },
    id: sessionId,
    title: nullableString,
    // Optional: how the title came about (docs/design.md §3); files written before have none.
    titleSource: { enum: ['auto', 'user'] },
    createdAt: isoDate,
    updatedAt: isoDate,
    status: { enum: ['open', 'closed', 'interrupted'] },
    project: { type: 'string' },
    host: { type: 'string' },
    pid: count,
    toolVersion: { type: 'string' },
    provider: {
      type: 'object',
      required: ['name', 'model'],
      properties: { name: { type: 'string' }, model: nullableString, source: configSource },
    },
    systemPrompt: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['path', 'sha256'],
          properties: { path: { type: 'string' }, sha256: { type: 'string' }, source: configSource },
        },
      ],
    },
    config: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['value', 'source'],
        properties: {
          value: { type: ['string', 'number', 'boolean', 'null'] },
          source: configSource,
        },
      },
    },
    messages: { type: 'array', items: message },
    summary: nullableString,
    archived: {
      type: 'array',
      items: {
        type: 'object',
        required: ['archivedAt', 'messages', 'summary', 'stats'],
        properties: {
          archivedAt: isoDate,
          messages: { type: 'array', items: message },
          summary: nullableString,
          stats,
          // Set on the part /uncompact leaves: the summary it set aside (no messages; absent on every other part).
          by: { const: 'uncompact' },
        },
      },
    },
    stats,
    journalSeq: count,
    draft: { type: 'string' },
    savedBy: { enum: ['save', 'autosave', 'close', 'reset', 'recovery'] },
    // Optional: files written before it was recorded have none.
    git: {
      type: 'object',
      required: ['root', 'branch', 'head'],
      properties: { root: { type: 'string' }, branch: nullableString, head: nullableString },
    },
    /** A fork's parent session (optional: only forks have it). */
    parentId: sessionId,
    /** How many of the parent's messages the fork started with. */
    forkPoint: count,
    /**
     * Set on an import: the ID a chatkeep export had where it was exported (when it had to take
     * a new one). Builds of 2026-11-25 wrote a conversation's source here: read, and moved to
     * `importSource` (codec.ts).
     */
    importedFrom: { oneOf: [sessionId, importSource] },
    /** Set on a conversation read from another tool: where it came from (its own field, so that older builds read the session). */
    importSource,
    /**
     * Events kept as stored, `line` exactly as it was: of types this chatkeep did not know (a
     * newer one wrote them), and the LangGraph saver's (graph-events.ts), which the model does
     * not interpret. Optional: only sessions that hold one have it.
     */
    futureEvents: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seq', 'ts', 'type', 'line'],
        properties: { seq: count, ts: { type: 'string' }, type: { type: 'string', pattern: '.' }, line: { type: 'string' } },
      },
    },
  },
} as const;
