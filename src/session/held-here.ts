/**
 * The sessions this process holds open, by store and ID (issue 19 item 5). A program that
 * resumes a session it already holds is told so (`SessionOpenHereError`) instead of being
 * refused as if another process held it, and can ask for the one it has (`opened(id)`); a
 * listing shows a held session as this process has it (its live messages, not what the store
 * had at the last snapshot). Weak references: a session the program dropped is not kept alive.
 */
import type { SessionImpl } from './session.js';

const held = new Map<string, WeakRef<SessionImpl>>();

const key = (location: string, id: string): string => `${location}\u0000${id}`;

/** The open session `id` of the store at `location` that this process holds, if any. */
export function heldHere(location: string, id: string): SessionImpl | undefined {
  const k = key(location, id);
  const session = held.get(k)?.deref();
  if (session && !session.isClosed && !session.readOnly) return session;
  held.delete(k);
  return undefined;
}

/** Records a session this process has just opened (with its lock). */
export function noteHeld(location: string, session: SessionImpl): void {
  for (const [k, ref] of held) if (ref.deref()?.isClosed !== false) held.delete(k);
  held.set(key(location, session.id), new WeakRef(session));
}

/** Forgets `session` as this process's own: what a crash does to everything a process held (tests leave one so, in-process). */
export function forgetHeld(session: SessionImpl): void {
  for (const [k, ref] of held) if (ref.deref() === session) held.delete(k);
}
