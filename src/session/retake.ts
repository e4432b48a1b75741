/**
 * Taking a lost lock back (`Session.retake()`): only when the process that took it is gone
 * and wrote nothing meanwhile, so that carrying on overwrites nobody's work.
 */
import { SessionInUseError } from './errors.js';
import { JournalWriter } from '../store/file/journal.js';
import { layout } from '../store/file/layout.js';
import type { HeldLock } from '../store/file/lock.js';
import type { RetakeResult, SessionSnapshot } from './types.js';

/** What the session adopts once its lock is back. */
export interface Retaken {
  lock: HeldLock;
  /** Reopened: the other process may have truncated the journal, so appends go to its real end. */
  journal: JournalWriter;
  lastSeq: number;
  savedStatus: SessionSnapshot['status'] | undefined;
}

/** Takes the lock again and checks the session on disk is still `mine`; otherwise lets go and says why not. */
export async function retakeLock(
  session: { dir: string; id: string; projectPath: string; now: () => Date; mine: SessionSnapshot },
  relock: () => Promise<HeldLock>,
): Promise<Retaken | Extract<RetakeResult, { retaken: false }>> {
  let lock: HeldLock;
  try {
    lock = await relock();
  } catch (err) {
    if (err instanceof SessionInUseError) return { retaken: false, holder: err.owner };
    throw err;
  }
  try {
    const { loadSession } = await import('../store/file/load.js');
    const loaded = await loadSession(session.dir, { id: session.id, projectPath: session.projectPath, now: session.now(), quarantine: false });
    if (!sameConversation(loaded.snapshot, session.mine)) {
      await lock.release();
      return { retaken: false };
    }
    const journal = await JournalWriter.open(layout.journal(session.dir));
    return { lock, journal, lastSeq: loaded.replay.lastSeq, savedStatus: loaded.savedStatus };
  } catch (err) {
    await lock.release().catch(() => undefined);
    throw err;
  }
}

/** True when `disk` is the conversation `mine` holds: nobody wrote to it since (every write moves updatedAt). */
function sameConversation(disk: SessionSnapshot, mine: SessionSnapshot): boolean {
  return (
    disk.updatedAt.getTime() === mine.updatedAt.getTime() &&
    disk.stats.messageCount === mine.stats.messageCount &&
    disk.archived.length === mine.archived.length &&
    disk.title === mine.title
  );
}
