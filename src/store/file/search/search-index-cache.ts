/**
 * The file store's search index files, kept in memory between searches of one process
 * (docs/design.md §18): the session browser searches on every keystroke, and reading 60 MB of index text each
 * time would cost more than the scan. A file is reused only while it is the very file that was
 * read (same device, inode, size, modification and change times, checked with one `stat` per
 * search); otherwise it is read again. This changes nothing of what the index is trusted with:
 * every search still checks it against the listing (search-index-update.ts), so a session
 * changed since it was indexed is read again as before.
 *
 * A file unused for a minute is let go (its memory and its descriptor); the timer never keeps
 * the process alive.
 */
import { stat } from 'node:fs/promises';
import { readSearchIndex, type LoadedIndex, type ReadIndex } from './search-index-file.js';
import { WARM_KEEP_MS } from '../../../search/warm.js';

/** How long a file let go stays open for the searches still using it. */
const CLOSE_DELAY_MS = 10_000;

interface Kept {
  identity: string;
  index: LoadedIndex;
  close(): Promise<void>;
  timer: ReturnType<typeof setTimeout>;
}

const kept = new Map<string, Kept>();

/** Files found damaged while searched (a block that did not match), while they are still those files. */
const damaged = new Map<string, { identity: string; detail: string }>();

/** Takes the file at `path` as damaged until it is replaced (a search rebuilds it). */
export async function markDamaged(path: string, detail: string): Promise<void> {
  forget(path, kept.get(path));
  const identity = await identityOf(path);
  if (identity !== undefined) damaged.set(path, { identity, detail });
}

/** Reads the index at `path`, or gives the one read before if the file is still that one. Its `close()` is a no-op: the cache closes it. */
export async function readKeptIndex(path: string): Promise<ReadIndex> {
  const identity = await identityOf(path);
  const bad = damaged.get(path);
  if (bad && bad.identity === identity) return { kind: 'damaged', detail: bad.detail };
  if (bad) damaged.delete(path);
  const before = kept.get(path);
  if (before && identity !== undefined && before.identity === identity) {
    before.timer.refresh();
    return { kind: 'ok', index: before.index };
  }
  if (before) forget(path, before);
  const read = await readSearchIndex(path);
  if (read.kind !== 'ok' || identity === undefined) return read;
  // Searches run side by side (a keystroke each): one that read the same file meanwhile is kept,
  // and this read's handle closed (it was given to nobody); left open, GC would close it.
  const meanwhile = kept.get(path);
  if (meanwhile && meanwhile.identity === identity) {
    await read.index.close();
    meanwhile.timer.refresh();
    return { kind: 'ok', index: meanwhile.index };
  }
  if (meanwhile) forget(path, meanwhile);
  // If the file was replaced between the stat and the read, the next search's stat differs: it is read again.
  const index: LoadedIndex = { ...read.index, close: async () => undefined };
  const timer = setTimeout(() => forget(path, kept.get(path)), WARM_KEEP_MS);
  timer.unref();
  kept.set(path, { identity, index, close: read.index.close, timer });
  return { kind: 'ok', index };
}

async function identityOf(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

function forget(path: string, entry: Kept | undefined): void {
  if (!entry || kept.get(path) !== entry) return;
  kept.delete(path);
  clearTimeout(entry.timer);
  // A search that took it a moment ago may still read a message from it: closed a little later.
  setTimeout(() => entry.close().catch(() => undefined), CLOSE_DELAY_MS).unref();
}
