/**
 * Telling a share revoked mid-chat, or a session deleted under its writer, from a takeover. Each
 * shows as a write under an epoch the session no longer accepts: row security hides a session no
 * longer shared (so the fence finds no row), and refuses one shared read-only now; a deleted
 * session has no row at all. Asked once, on the holder's own connection, as the role that holds it.
 */
import type { ClientBase } from 'pg';
import { LockSupersededError, SessionDeletedError, ShareRevokedError } from '../../../session/api/errors.js';
import { lostForGood } from '../../../session/api/lost-for-good.js';
// row-security.ts imports nothing: sharing.ts would pull reading.ts into lock.ts's imports, a cycle.
import { OWNER_SQL } from './row-security.js';

/**
 * `err` as a `ShareRevokedError` when this role may no longer write to the session, or as a
 * `SessionDeletedError` when the session, its own (`mine`: a session's owner never changes, and its
 * row is never hidden from it), has no row any more; else `err` itself.
 */
export async function revokedOrSuperseded(client: ClientBase, err: LockSupersededError, mine: boolean): Promise<LockSupersededError> {
  if (lostForGood(err)) return err;
  try {
    const { rows } = await client.query<{ owner: string; writable: boolean }>(OWNER_SQL, [err.id]);
    const row = rows[0];
    if (!row) return mine ? new SessionDeletedError(err.id, err.epoch) : new ShareRevokedError(err.id, err.epoch);
    return row.writable ? err : new ShareRevokedError(err.id, err.epoch, row.owner);
  } catch {
    // No answer (the connection is going, or a store without shares): a takeover, as before.
    return err;
  }
}
