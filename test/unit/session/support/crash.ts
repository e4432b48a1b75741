/**
 * Leaves a live session as a crash would, inside this process: the journal handle and the lock
 * are dropped without a snapshot or close (the files stay as they were on disk).
 */
export async function simulateCrash(session: unknown): Promise<void> {
  const s = session as { lock: Promise<{ release(): Promise<void> }>; journal: { close(): Promise<void> } };
  await s.journal.close();
  await (await s.lock).release();
}
