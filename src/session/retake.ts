/**
 * Taking a lost lock back (`Session.retake()`): only when the process that took it is gone
 * and wrote nothing meanwhile, so that carrying on overwrites nobody's work.
 */
import { SessionInUseError } from './errors.js';
import { loadFrom } from './reading.js';
import type { EventLog, SessionStore, WriterLock } from './store.js';
import type { RetakeResult, SessionSnapshot } from './types.js';

/** What the session adopts once its lock is back. */
export interface Retaken {
  lock: WriterLock;
  /** Reopened: the other process may have compacted the log, so appends go to its real end. */
  log: EventLog;
  lastSeq: number;
  savedStatus: SessionSnapshot['status'] | undefined;
}

/** Takes the lock again and checks the stored session is still `mine`; otherwise lets go and says why not. */
export async function retakeLock(
  store: SessionStore,
  session: { id: string; projectPath: string; now: () => Date; mine: SessionSnapshot; onLost: (err: Error) => void },
): Promise<Retaken | Extract<RetakeResult, { retaken: false }>> {
  let lock: WriterLock;
  try {
    lock = await store.lock(session.id, session.onLost);
  } catch (err) {
    if (err instanceof SessionInUseError) return { retaken: false, holder: err.owner };
    throw err;
  }
  try {
    const loaded = await loadFrom({ load: (o) => store.load(session.id, o) }, session.id, session.projectPath, { now: session.now(), quarantine: false });
    if (!sameConversation(loaded.snapshot, session.mine)) {
      await lock.release();
      return { retaken: false };
    }
    const log = await store.openLog(session.id, lock);
    return { lock, log, lastSeq: loaded.replay.lastSeq, savedStatus: loaded.savedStatus };
  } catch (err) {
    await lock.release().catch(() => undefined);
    throw err;
  }
}

/** True when `stored` is the conversation `mine` holds: nobody wrote to it since (every write moves updatedAt). */
function sameConversation(stored: SessionSnapshot, mine: SessionSnapshot): boolean {
  return (
    stored.updatedAt.getTime() === mine.updatedAt.getTime() &&
    stored.stats.messageCount === mine.stats.messageCount &&
    stored.archived.length === mine.archived.length &&
    stored.title === mine.title
  );
}
