/**
 * The events `chatkeep/langgraph` journals in a thread's session: a checkpoint (with the values
 * of the channels it changed), the pending writes of a task, and a thread's checkpoints deleted.
 * The session model does not interpret them: each is kept as stored, as a line among the
 * snapshot's kept events (`futureEvents`, the field an older chatkeep keeps byte for byte), so
 * they round-trip through snapshot and journal on every store and through copies and exports,
 * and a chatkeep from before them keeps them as events of a newer build. Nothing that reads
 * messages sees them; the conversation they carry is stored as messages too.
 */
import type { FutureEvent } from './data.js';

/** The graph event types, in the order the saver writes them. */
export const GRAPH_EVENT_TYPES = ['graph-checkpoint', 'graph-writes', 'graph-checkpoints-deleted'] as const;
export type GraphEventType = (typeof GRAPH_EVENT_TYPES)[number];

/** A graph event's payload: the saver's own JSON, kept uninterpreted here. */
export type GraphPayload = Record<string, unknown>;

const GRAPH = new Set<string>(GRAPH_EVENT_TYPES);

/** True for an event the LangGraph saver wrote. */
export function isGraphEvent(event: { type: string }): boolean {
  return GRAPH.has(event.type);
}

/** The kept events a newer chatkeep wrote: those that are not graph events (which this build knows). */
export function newerEvents(events: readonly FutureEvent[] | undefined): FutureEvent[] {
  return (events ?? []).filter((e) => !isGraphEvent(e));
}

/** The graph events kept in a snapshot, in the order they were written. */
export function graphEvents(events: readonly FutureEvent[] | undefined): FutureEvent[] {
  return (events ?? []).filter(isGraphEvent).sort((a, b) => a.seq - b.seq);
}
