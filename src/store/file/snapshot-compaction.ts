/**
 * A snapshot and the journal lines it makes redundant (docs/design.md §5), written with as few waits as
 * the promises allow (leaving must cost little).
 *
 * - While the session runs, a snapshot that holds every line of the journal empties it under the
 *   same guard hold as its rename, once the rename is durable (one takeover guard, not two).
 * - A closing snapshot leaves a small journal as it is, and skips the directory fsync: every event
 *   in it is already durable, the lines up to the snapshot's seq are skipped by every reader, and
 *   after a power cut either snapshot (the old one, or this one) with that journal is the whole
 *   session. The next snapshot that runs compacts it (an autosave, a `/reset`, or a close once the
 *   journal has grown past `DEFERRED_JOURNAL_BYTES`), so the journal stays small.
 */
import { fsyncDir } from './atomic-write.js';
import type { JournalWriter } from './journal.js';
import type { HeldLock } from './lock.js';
import { writeSnapshotFile } from './snapshot-store.js';
import type { SessionSnapshot } from '../../session/api/data.js';

/** A closing snapshot leaves at most this much journal for a later snapshot to empty (a few hundred turns). */
export const DEFERRED_JOURNAL_BYTES = 64 * 1024;

/** The journal a session writes through, and the seq up to which its compaction was left for later. */
export interface OpenJournal {
  writer: JournalWriter;
  deferredAt?: number;
}

/** Writes `snapshot` through `lock`'s fence; with `journal`, compacts it as the header says. */
export async function writeSnapshotCompacting(dir: string, snapshot: SessionSnapshot, lock: HeldLock, journal: OpenJournal | undefined): Promise<number> {
  const seq = snapshot.journalSeq;
  if (journal && snapshot.status === 'closed' && journal.writer.bytes <= DEFERRED_JOURNAL_BYTES) {
    const bytes = await writeSnapshotFile(dir, snapshot, (replace) => lock.fence(replace), false);
    journal.deferredAt = seq;
    return bytes;
  }
  const writer = journal && journal.writer.bytes > 0 && journal.writer.holdsNothingPast(seq) ? journal.writer : undefined;
  if (!writer) return writeSnapshotFile(dir, snapshot, (replace) => lock.fence(replace));
  const bytes = await writeSnapshotFile(
    dir,
    snapshot,
    (replace) =>
      lock.fence(async () => {
        await replace();
        // The journal may be emptied only once the snapshot holding its lines is durable.
        await fsyncDir(dir);
        // A failure leaves the lines (skipped on load); the compaction that follows tries again and says so.
        await writer.truncate().catch(() => undefined);
      }),
    false,
  );
  return bytes;
}

/** The model's compaction after a snapshot (`EventLog.compact`): done already, or left for later, or done now. */
export function compactJournal(journal: OpenJournal, seq: number, lock: HeldLock): Promise<void> {
  if (journal.writer.bytes === 0 || journal.deferredAt === seq) return Promise.resolve();
  return lock.fence(() => journal.writer.truncate());
}
