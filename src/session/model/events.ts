/**
 * The events of a session (docs/design.md §4): what each journal line (PostgreSQL: each `events` row)
 * records, as one typed union. A store keeps them uninterpreted; `decodeEvent` is the one place
 * that reads a stored payload, and `applyEvent` (apply-event.ts) the one place that gives each
 * its effect, for a live write ("journal, then apply") as for a resume ("apply each").
 */
import type { ConfigSource, ConfigValue, SessionStats, SystemPromptRef, TitleSource, Usage } from '../api/data.js';
import type { JournaledMessage } from './message-codec.js';
import type { ToolCallDelta } from '../api/message-parts.js';
import { journaledFrom } from './message-codec.js';
import { GRAPH_EVENT_TYPES, type GraphPayload } from '../api/graph-events.js';

/** Every event type this build writes and interprets; any other was written by a newer build. */
export const EVENT_TYPES = ['message', 'delta', 'reset', 'title', 'config', 'provider', 'system', 'draft', 'supersede', 'git', 'uncompact', ...GRAPH_EVENT_TYPES] as const;
export type SessionEventType = (typeof EVENT_TYPES)[number];

/**
 * What `/compact` records: a `reset` event whose payload carries these fields, so that a
 * chatkeep from before `/compact` reads it as a `/reset` (everything archived, nothing lost)
 * instead of as a damaged line.
 */
export type Compaction = {
  /** Stands for the archived messages from now on (sent ahead of the live ones). */
  summary: string;
  /** How many of the last live messages stay live. */
  keep: number;
  /** What asking for the summary cost, and the model that wrote it. */
  usage?: Usage;
  model?: string;
  /** The live counters it leaves: what a reader without the message bodies (a listing) takes. */
  stats?: SessionStats;
};

/** Each event type's payload. */
export type EventPayloads = {
  /** A stored message; `replyId` when it finishes a streamed reply (its deltas are then done with). */
  message: { message: JournaledMessage; replyId?: string };
  /** A piece of a streamed reply (`replace`: the reply's whole text so far, journaled again by a snapshot mid-stream). */
  delta: { replyId: string; text: string; replace?: boolean; toolCalls?: ToolCallDelta[] };
  /** `/reset` (an empty payload) or `/compact` (a compaction). */
  reset: Partial<Compaction>;
  title: { title: string | null; source?: TitleSource };
  config: { key: string; value: ConfigValue };
  provider: { name: string; model: string | null; source?: ConfigSource };
  system: { ref: SystemPromptRef | null };
  draft: { text: string | null };
  supersede: { indexes: number[] };
  git: { root: string; branch: string | null; head: string | null };
  /** A LangGraph checkpoint, its pending writes, a thread's checkpoints deleted (graph-events.ts): kept as stored, read by `chatkeep/langgraph` only. */
  'graph-checkpoint': GraphPayload;
  'graph-writes': GraphPayload;
  'graph-checkpoints-deleted': GraphPayload;
  /** `/uncompact` in place: the last compaction undone (a build before it keeps the event unapplied). */
  uncompact: Record<string, never>;
};

/**
 * One durable event of a session: `{seq, ts, type, payload}`, seqs consecutive per session,
 * kept by a store uninterpreted (the model reads it with `decodeEvent`).
 */
export interface SessionEvent {
  seq: number;
  /**
   * The event's own ID, random, given by its writer (docs/design.md §4): a write whose outcome is
   * unknown is settled by reading it back, and a store never keeps the same ID twice. Events of
   * builds before it have none.
   */
  id?: string;
  /** ISO time of the event. */
  ts: string;
  type: SessionEventType;
  payload: Record<string, unknown>;
}


/** One event of a session as the model reads it (a store keeps it as a `SessionEvent`, store.ts). */
export type KnownEvent = { [T in SessionEventType]: { seq: number; /** ISO time of the event. */ ts: string; type: T; payload: EventPayloads[T] } }[SessionEventType];

/** An event before the log gives it its place and time. */
export type EventChange = { [T in SessionEventType]: { type: T; payload: EventPayloads[T] } }[SessionEventType];

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A stored event of a known type (`payload` an object) as the typed union. Lenient as reading
 * always was: a field of the wrong type reads as its empty value, never as damage.
 */
export function decodeEvent(event: SessionEvent): KnownEvent {
  const { seq, ts, type, payload: p } = event;
  const at = { seq, ts };
  switch (type) {
    case 'message': {
      const replyId = text(p.replyId);
      // A message written without a time of its own (by another program) takes its event's.
      const raw = typeof p.message === 'object' && p.message !== null && !('timestamp' in p.message) ? { ...p.message, timestamp: ts } : p.message;
      return { ...at, type, payload: { message: journaledFrom(raw), ...(replyId !== null ? { replyId } : {}) } };
    }
    case 'delta': {
      const calls = Array.isArray(p.toolCalls) ? p.toolCalls.flatMap(toolCallDelta) : [];
      return {
        ...at,
        type,
        payload: { replyId: String(p.replyId), text: String(p.text ?? ''), ...(p.replace === true ? { replace: true } : {}), ...(calls.length ? { toolCalls: calls } : {}) },
      };
    }
    case 'reset':
      return { ...at, type, payload: compactionFrom(p) ?? {} };
    case 'title':
      // Title events of earlier builds have no source: their titles were chosen.
      return { ...at, type, payload: { title: text(p.title), source: p.source === 'auto' ? 'auto' : 'user' } };
    case 'config':
      return { ...at, type, payload: { key: String(p.key), value: p.value as ConfigValue } };
    case 'provider':
      return { ...at, type, payload: { name: String(p.name), model: text(p.model), ...(typeof p.source === 'string' ? { source: p.source as ConfigSource } : {}) } };
    case 'system':
      return { ...at, type, payload: { ref: (p.ref as SystemPromptRef | null | undefined) ?? null } };
    case 'draft':
      return { ...at, type, payload: { text: text(p.text) } };
    case 'supersede':
      return { ...at, type, payload: { indexes: Array.isArray(p.indexes) ? p.indexes.filter((i): i is number => Number.isInteger(i)) : [] } };
    case 'git':
      // A git event without a root (none is written) changes nothing: it reads as an empty root.
      return { ...at, type, payload: { root: typeof p.root === 'string' ? p.root : '', branch: text(p.branch), head: text(p.head) } };
    case 'graph-checkpoint':
    case 'graph-writes':
    case 'graph-checkpoints-deleted':
      return { ...at, type, payload: p };
    case 'uncompact':
      return { ...at, type, payload: {} };
  }
}

function toolCallDelta(v: unknown): ToolCallDelta[] {
  if (typeof v !== 'object' || v === null || !Number.isInteger((v as ToolCallDelta).index)) return [];
  const d = v as Record<string, unknown>;
  const out: ToolCallDelta = { index: d.index as number };
  if (typeof d.id === 'string') out.id = d.id;
  if (typeof d.name === 'string') out.name = d.name;
  if (typeof d.arguments === 'string') out.arguments = d.arguments;
  return [out];
}

/** A `reset` event's payload as a compaction, when it is one (a plain `/reset` has no summary). */
function compactionFrom(p: Record<string, unknown>): Compaction | undefined {
  if (typeof p.summary !== 'string') return undefined;
  const c: Compaction = { summary: p.summary, keep: Number.isInteger(p.keep) ? (p.keep as number) : 0 };
  const usage = p.usage as Partial<Usage> | undefined;
  if (typeof usage?.inputTokens === 'number' && typeof usage.outputTokens === 'number') c.usage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
  if (typeof p.model === 'string') c.model = p.model;
  const stats = p.stats as Partial<SessionStats> | undefined;
  if (typeof stats?.messageCount === 'number' && typeof stats.inputTokens === 'number' && typeof stats.outputTokens === 'number') {
    c.stats = { messageCount: stats.messageCount, inputTokens: stats.inputTokens, outputTokens: stats.outputTokens };
    if (Array.isArray(stats.byModel)) c.stats.byModel = stats.byModel.map((m) => ({ ...(m as object) })) as SessionStats['byModel'];
  }
  return c;
}
