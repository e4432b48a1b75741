/**
 * Taking a lost lock back (`Session.retake()`): only when nobody else wrote to the session
 * meanwhile, so that carrying on overwrites nobody's work. Writes are numbered (seq), and only
 * the lock's holder writes: the stored session ends at this process's last seq exactly when
 * all it holds is this process's own (a lost connection, a holder that left without writing).
 */
import { SessionInUseError } from '../api/errors.js';
import { loadFrom } from './reading.js';
import type { EventLog, SessionStore, WriterLock } from '../format/store.js';
import type { SessionSnapshot } from '../api/data.js';
import type { RetakeResult } from '../api/session-api.js';

/** What the session adopts once its lock is back. */
export interface Retaken {
  lock: WriterLock;
  /** Reopened: the other process may have compacted the log, so appends go to its real end. */
  log: EventLog;
  lastSeq: number;
  savedStatus: SessionSnapshot['status'] | undefined;
  /** The session as stored: this process's own writes, with a reply cut off by the loss kept as interrupted. */
  state: SessionSnapshot;
  /** Events past the stored snapshot (a snapshot should hold them). */
  pending: boolean;
  /** The seq the stored snapshot contains. */
  savedSeq: number;
}

/** Takes the lock again and checks the stored session is still `mine`; otherwise lets go and says why not. */
export async function retakeLock(
  store: SessionStore,
  session: { id: string; projectPath: string; now: () => Date; seq: number; onLost: (err: Error) => void },
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
    if (loaded.replay.lastSeq !== session.seq) {
      await lock.release();
      return { retaken: false };
    }
    const log = await store.openLog(session.id, lock);
    const pending = loaded.replay.applied > 0 || loaded.replay.unfinishedReplies.length > 0;
    const savedSeq = loaded.replay.lastSeq - loaded.replay.applied;
    return { lock, log, lastSeq: loaded.replay.lastSeq, savedStatus: loaded.savedStatus, state: loaded.snapshot, pending, savedSeq };
  } catch (err) {
    await lock.release().catch(() => undefined);
    throw err;
  }
}
