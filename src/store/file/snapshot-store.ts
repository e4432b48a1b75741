import { stat } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { errno } from '../../session/ids.js';
import type { IndexRow } from '../../session/index-row.js';
import { layout } from './layout.js';
import { removeMeta, writeMeta } from './meta-file.js';
import type { SessionSnapshot } from '../../session/types.js';

/** Where a session's snapshots go: `session.json` in its directory, or nowhere (`persist: false`). */
export interface SnapshotStore {
  readonly kind: 'file' | 'memory';
  /** Writes the snapshot durably; resolves to the bytes written. */
  write(snapshot: SessionSnapshot): Promise<number>;
  /** The snapshot in place (an earlier run's), if any. */
  inPlace(): Promise<{ at: Date; bytes: number } | undefined>;
  /** Records the listing row of the snapshot in place beside it (a cache, session.meta.json). */
  recordMeta(row: IndexRow): Promise<void>;
}

/** Snapshots as `<dir>/session.json`, written atomically. */
export function fileSnapshots(dir: string): SnapshotStore {
  const path = layout.snapshot(dir);
  return {
    kind: 'file',
    async write(snapshot) {
      // The codec (superjson) loads with the first snapshot, not before the first prompt.
      const { encodeSnapshot } = await import('../../session/codec.js');
      // Encoded once here rather than inside the write, so its size costs nothing extra.
      const bytes = Buffer.from(await encodeSnapshot(snapshot), 'utf8');
      // The meta file describes the snapshot in place: gone before a new one goes in, back after.
      await removeMeta(dir);
      await writeFileAtomic(path, bytes);
      return bytes.length;
    },
    async inPlace() {
      try {
        const s = await stat(path);
        return { at: s.mtime, bytes: s.size };
      } catch (err) {
        if (errno(err) === 'ENOENT') return undefined;
        throw err;
      }
    },
    recordMeta: (row) => writeMeta(dir, row),
  };
}

/** A store that keeps nothing: the session lives in memory only. */
export const memorySnapshots: SnapshotStore = {
  kind: 'memory',
  write: () => Promise.resolve(0),
  inPlace: () => Promise.resolve(undefined),
  recordMeta: () => Promise.resolve(),
};
