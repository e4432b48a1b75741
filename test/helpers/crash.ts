import { forgetHeld } from '../../src/session/runtime/held-here.js';
import type { SessionImpl } from '../../src/session/runtime/session.js';

/**
 * Leaves a live session as a crash would, inside this process: the event log and the lock
 * are dropped without a snapshot or close (what is stored stays as it was), and this process
 * no longer counts it as its own (a crashed process holds nothing).
 */
export async function simulateCrash(session: unknown): Promise<void> {
  const s = session as { lock: { release(): Promise<void> }; log: { close(): Promise<void> } };
  await s.log.close();
  await s.lock.release();
  forgetHeld(session as SessionImpl);
}
