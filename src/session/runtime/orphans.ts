/**
 * A session exists once it holds a message (docs/design.md §3). A new one is discarded when it is closed
 * without one; a program that ended without closing it (a crash, a `process.exit`, a host that
 * never calls `close()`) left its ID, lock and event log behind. A listing that meets such a
 * session (no message, no snapshot, its holder gone) discards it as `close()` would have, so
 * nothing of it stays on disk or in the database. Best effort: one that cannot be taken or
 * discarded now is only hidden, as before, and tried again by the next listing.
 */
import type { IndexRow } from '../api/listing.js';
import { holdsMessage } from '../format/listed-rows.js';
import type { SessionStore } from '../format/store.js';

/** `rows` without those of sessions discarded here. */
export async function discardOrphans(store: SessionStore, rows: readonly IndexRow[]): Promise<IndexRow[]> {
  const gone = new Set<string>();
  for (const row of rows) {
    if (row.status !== 'interrupted' || holdsMessage(row)) continue;
    if (await discarded(store, row.id).catch(() => false)) gone.add(row.id);
  }
  return gone.size === 0 ? rows.slice() : rows.filter((r) => !gone.has(r.id));
}

async function discarded(store: SessionStore, id: string): Promise<boolean> {
  await store.locate(id);
  // A snapshot means an earlier build's empty session: kept, reachable by ID.
  if ((await store.snapshotInfo(id)) !== undefined) return false;
  const lock = await store.lock(id, () => undefined);
  try {
    // The store refuses, keeping everything, when a message event is stored after all.
    await store.discard(id, lock);
    return true;
  } catch {
    await lock.release().catch(() => undefined);
    return false;
  }
}
