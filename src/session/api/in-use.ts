/**
 * Builds the refusal for a held session where a store finds the lock taken, saying since when in
 * words (`since 12 minutes ago`; the start time as recorded when it does not read as a time).
 */
import { relativeTime } from '../../text/relative-time.js';
import { SessionInUseError, type LockOwner } from './errors.js';

/** The refusal for a held session by `owner`, as of `now`. */
export function sessionInUse(id: string, owner: LockOwner | undefined, now = new Date()): SessionInUseError {
  const started = owner ? new Date(owner.startedAt) : undefined;
  if (!started || Number.isNaN(started.getTime())) return new SessionInUseError(id, owner);
  return new SessionInUseError(id, owner, relativeTime(started, now));
}
