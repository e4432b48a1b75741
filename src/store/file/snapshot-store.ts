import { stat } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { errno } from '../../util/errno.js';
import { layout } from './layout.js';
import { removeMeta } from './meta-file.js';
import type { SessionSnapshot } from '../../session/api/data.js';

/**
 * Writes `<dir>/session.json` durably and atomically; resolves to the bytes written. `fence`, when
 * given, runs the rename that replaces the old snapshot (the writer's epoch is checked there).
 * `syncDir: false`: the rename is made durable by `fence`, or need not be (snapshot-compaction.ts).
 */
export async function writeSnapshotFile(
  dir: string,
  snapshot: SessionSnapshot,
  fence?: (replace: () => Promise<void>) => Promise<void>,
  syncDir = true,
): Promise<number> {
  // The codec (superjson) loads with the first snapshot, not before the first prompt.
  const { encodeSnapshotSliced } = await import('../../session/format/codec.js');
  // The meta file describes the snapshot in place: gone before a new one goes in, back after.
  await removeMeta(dir);
  // Encoded in slices and written as it is made, so a large session never stalls the prompt.
  return writeFileAtomic(layout.snapshot(dir), (write) => encodeSnapshotSliced(snapshot, write), fence, syncDir);
}

/** The `session.json` in place (an earlier run's), if any. */
export async function snapshotFileInfo(dir: string): Promise<{ at: Date; bytes: number } | undefined> {
  try {
    const s = await stat(layout.snapshot(dir));
    return { at: s.mtime, bytes: s.size };
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    throw err;
  }
}
