/**
 * The sessions this process holds open, by store and ID (docs/design.md §10). A program that
 * resumes a session it already holds is told so (`SessionOpenHereError`) instead of being
 * refused as if another process held it, and can ask for the one it has (`opened(id)`); a
 * listing shows a held session as this process has it (its live messages, not what the store
 * had at the last snapshot). Weak references: a session the program dropped is not kept alive.
 */
import type { SessionImpl } from './session.js';
import type { SessionStore } from '../format/store.js';

/** Where sessions are kept: a data directory or a server by its location; a memory store is its own place. */
export type Place = string | object;

const byLocation = new Map<string, Map<string, WeakRef<SessionImpl>>>();
const byObject = new WeakMap<object, Map<string, WeakRef<SessionImpl>>>();
/** The map each held session is recorded in. */
const recordedIn = new WeakMap<SessionImpl, Map<string, WeakRef<SessionImpl>>>();

/** The place of `store`: two managers on one data directory or server share it. */
export function placeOf(store: SessionStore): Place {
  return store.kind === 'memory' ? store : store.location;
}

function sessionsAt(place: Place): Map<string, WeakRef<SessionImpl>> {
  let held = typeof place === 'string' ? byLocation.get(place) : byObject.get(place);
  if (!held) {
    held = new Map();
    if (typeof place === 'string') byLocation.set(place, held);
    else byObject.set(place, held);
  }
  return held;
}

/** The open session `id` at `place` that this process holds, if any. */
export function heldHere(place: Place, id: string): SessionImpl | undefined {
  const held = sessionsAt(place);
  const session = held.get(id)?.deref();
  if (session && !session.isClosed && !session.readOnly) return session;
  held.delete(id);
  return undefined;
}

/** Records a session this process has just opened (with its lock). */
export function noteHeld(place: Place, session: SessionImpl): void {
  const held = sessionsAt(place);
  for (const [id, ref] of held) if (ref.deref()?.isClosed !== false) held.delete(id);
  held.set(session.id, new WeakRef(session));
  recordedIn.set(session, held);
}

/** Forgets `session` as this process's own: what a crash does to everything a process held (tests leave one so, in-process). */
export function forgetHeld(session: SessionImpl): void {
  const held = recordedIn.get(session);
  if (held?.get(session.id)?.deref() === session) held.delete(session.id);
}

/** The IDs of every open session this process holds at `place`. */
export function heldIdsHere(place: Place): string[] {
  return [...sessionsAt(place).keys()].filter((id) => heldHere(place, id) !== undefined);
}
