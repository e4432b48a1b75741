/**
 * Forward compatibility (docs/design.md §4): an event of a type this build does not
 * know was written by a newer chatkeep. It is not damage: it is kept byte for byte, skipped by
 * replay (replay.ts keeps it in the snapshot's `futureEvents`, and so through copies and
 * exports), and said once, in one line. Only what does not parse as an event is damage.
 */
import { printable } from '../api/errors.js';
import { EVENT_TYPES, type SessionEvent } from './events.js';
import type { FutureEvent } from '../api/data.js';
import { newerEvents } from '../api/graph-events.js';

const KNOWN = new Set<string>(EVENT_TYPES);

/** One stored event as read: one this build interprets, one a newer build wrote, or undefined (damage). */
export type ReadEvent = { known: SessionEvent } | { future: FutureEvent } | undefined;

/**
 * Sorts out one stored event (`value`, parsed from `line`): an object with a whole `seq`, a
 * string `ts` and a string `type`. A known type also needs an object payload; an unknown one is
 * kept whatever its payload, as `line`.
 */
export function readEvent(value: unknown, line: string): ReadEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const e = value as Record<string, unknown>;
  if (!Number.isInteger(e.seq) || typeof e.ts !== 'string' || typeof e.type !== 'string' || e.type === '') return undefined;
  if (!KNOWN.has(e.type)) return { future: { seq: e.seq as number, ts: e.ts, type: e.type, line } };
  if (typeof e.payload !== 'object' || e.payload === null || Array.isArray(e.payload)) return undefined;
  return { known: e as unknown as SessionEvent };
}

/**
 * The line that stands for an event kept as a database row (`payload` is the json column's
 * own text, unchanged): what the journal line of the same event would be.
 */
export function rowLine(seq: number, ts: string, type: string, payload: string): string {
  return `${JSON.stringify({ seq, ts, type }).slice(0, -1)},"payload":${payload}}`;
}

/**
 * The one line that says a session holds events a newer chatkeep wrote: of types this build does
 * not know, or of known types with what it cannot apply whole (kept as is, not applied).
 */
export function futureEventsNote(kept: readonly FutureEvent[]): string {
  // Graph events are kept the same way but known to this build: nothing to say about them.
  const events = newerEvents(kept);
  const phrase = (of: readonly FutureEvent[]): string => {
    const types = [...new Set(of.map((e) => printable(e.type)))];
    return `${of.length === 1 ? '1 event' : `${of.length} events`} of ${types.length === 1 ? 'type' : 'types'} ${types.join(', ')}`;
  };
  const unknown = events.filter((e) => !KNOWN.has(e.type));
  const known = events.filter((e) => KNOWN.has(e.type));
  const parts: string[] = [];
  if (unknown.length > 0) parts.push(`${phrase(unknown)}: written by a newer chatkeep; kept as is.`);
  if (known.length > 0) parts.push(`${phrase(known)} that this chatkeep cannot read whole (a newer chatkeep's?): kept as is, not applied.`);
  return parts.join(' ');
}
