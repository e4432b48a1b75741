/**
 * Builds the refusal for a held session where a store finds the lock taken. It lives apart from
 * errors.ts (which imports nothing) because it may load date-fns, an optional peer.
 */
import { SessionInUseError, type LockOwner } from './errors.js';
import { importOptional } from './optional-package.js';

/**
 * The refusal for a held session, saying since when in words (date-fns, loaded only on this path;
 * an optional peer dependency of the library: without it, the time the holder took it).
 */
export async function sessionInUse(id: string, owner: LockOwner | undefined, now = new Date()): Promise<SessionInUseError> {
  const started = owner ? new Date(owner.startedAt) : undefined;
  if (!started || Number.isNaN(started.getTime())) return new SessionInUseError(id, owner);
  const words = await importOptional('date-fns', () => import('date-fns/formatDistance'));
  if (!words) return new SessionInUseError(id, owner);
  const { formatDistance } = words;
  return new SessionInUseError(id, owner, formatDistance(started > now ? now : started, now, { addSuffix: true }));
}
