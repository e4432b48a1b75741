/**
 * Discarding a session that never held a message (docs/design.md §3: a session exists once it holds
 * one): its directory goes, its ID stays in `ids/`, so it is never issued again.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WriterLock } from '../../session/format/store.js';
import { withGuard } from './guard.js';
import { readJournal } from './journal.js';
import { layout } from './layout.js';
import { inspectLock } from './lock.js';

/**
 * Lets the lock go, then, under the takeover guard (no writer starts meanwhile), moves the session
 * directory out of `sessions/` under a name no listing reads and removes it. A session someone
 * took meanwhile (by its ID), or one whose journal holds a message after all, is left as it is.
 */
export async function discardSession(dir: string, lock: WriterLock, staleMs: number): Promise<boolean> {
  if (await holdsMessage(dir)) throw new Error('its journal holds a message');
  await lock.release();
  const gone = join(dirname(dir), `.discarded-${basename(dir)}-${randomBytes(4).toString('hex')}`);
  let moved = false;
  await withGuard(layout.takeoverGuard(dir), async () => {
    if ((await inspectLock(dir, staleMs)).state === 'held') return;
    await rename(dir, gone);
    moved = true;
  });
  // The guard moved along with the directory (its own removal at the old path found nothing).
  if (moved) await rm(gone, { recursive: true, force: true });
  return moved;
}

async function holdsMessage(dir: string): Promise<boolean> {
  return (await readJournal(layout.journal(dir))).events.some((event) => event.type === 'message');
}
