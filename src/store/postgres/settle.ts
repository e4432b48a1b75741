/**
 * Settling a write whose outcome is unknown (docs/design.md §12). The lock's connection went away
 * (a read timeout while a row lock held the INSERT back, the connection cut after the INSERT was
 * sent): the server may still commit it, or may have already. Before anyone is told whether it
 * was stored, this taking's epoch is fenced off from a connection of its own: the UPDATE waits
 * for a statement of that epoch still holding the session's row to end, and none can start after
 * it. Then the events are read back by their own IDs, and the answer is final.
 */
import type { Target } from './connect.js';
import { connectClient, isUnreachable } from './connect.js';

/** Tries to settle this many times (a server restarting, a row lock slow to go) before the outcome stays unknown. */
const ATTEMPTS = 3;

/** True when every one of `eventIds` is stored in session `id`; false when none is; throws when it cannot be told. */
export async function settleAppend(target: Target, id: string, epoch: number, eventIds: readonly string[]): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await connectClient(target);
      try {
        // Raises the epoch only if it is still this taking's: a taker since raised it past (and waited the same way).
        await client.query('UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1 AND lock_epoch = $2', [id, epoch]);
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1 AND event_id = ANY($2::text[])', [id, eventIds]);
        // One statement inserted them all, so all or none are there.
        return rows[0]?.n === eventIds.length;
      } finally {
        await client.end().catch(() => undefined);
      }
    } catch (err) {
      if (attempt >= ATTEMPTS || !isUnreachable(err)) throw err;
    }
  }
}
