/**
 * The file store's fence (docs/design.md §12), beside the lock (lock.ts): the epoch each
 * taking of a session's lock gets, kept in `<session>/epoch` (it outlives the lock, so that the
 * next taking is higher still), and the journal detached from a holder only presumed dead.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { errno } from '../../util/errno.js';
import { FILE_MODE, fsyncDir, tempPath } from './atomic-write.js';
import { layout } from './layout.js';

/**
 * Issues the session's next epoch (one above the last, 0 before any: a lock taken only by older
 * builds) and records it. Called under the takeover guard: no other taking reads it meanwhile.
 */
export async function nextEpoch(sessionDir: string, ownerEpoch: () => Promise<number | undefined>): Promise<number> {
  const epoch = (await lastEpoch(sessionDir, ownerEpoch)) + 1;
  await writeWhole(layout.lockEpoch(sessionDir), `${epoch}\n`);
  return epoch;
}

async function lastEpoch(sessionDir: string, ownerEpoch: () => Promise<number | undefined>): Promise<number> {
  const text = await readFile(layout.lockEpoch(sessionDir), 'utf8').catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return '0';
    throw err;
  });
  const epoch = Number(text.trim());
  // Unreadable (a power cut mid-write): any epoch above the owner file's is as good.
  if (Number.isSafeInteger(epoch) && epoch >= 0) return epoch;
  return (await ownerEpoch()) ?? Date.now();
}

/**
 * Gives the journal a new inode with the same lines (copy, fsync, rename over): a writer that
 * still has the old one open appends to a file no longer in the session, and its next check
 * (`JournalWriter.replaced`) tells it so before the write counts as made.
 */
export async function detachJournal(sessionDir: string): Promise<void> {
  const path = layout.journal(sessionDir);
  const tmp = tempPath(path);
  try {
    await copyFile(path, tmp);
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    throw err;
  }
  try {
    const handle = await open(tmp, 'r+');
    await handle.sync().finally(() => handle.close());
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(sessionDir);
}

/** Written whole then renamed, so a reader never sees half a record. */
export async function writeWhole(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, text, { mode: FILE_MODE });
  await rename(tmp, path).catch(async (err: unknown) => {
    await unlink(tmp).catch(() => undefined);
    throw err;
  });
}
