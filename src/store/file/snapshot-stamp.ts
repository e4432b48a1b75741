import { statSync } from 'node:fs';
import type { IndexRow } from '../../session/api/listing.js';
import { layout } from './layout.js';

/**
 * What a listing row records of the snapshot it was read from: its size and mtime. A closed
 * session's cached row (meta file, index.json) is trusted only while its snapshot still has
 * that stamp: one stat per listed row notices a snapshot put back by hand, or rewritten by
 * another tool, and the listing reads the session again (docs/design.md §8). Synchronous: a
 * listing stats thousands of these, and a direct stat costs a fraction of a thread-pool round trip.
 */
export function snapshotStamp(sessionDir: string): string {
  const s = statSync(layout.snapshot(sessionDir), { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : 'none';
}

/** `row` with the stamp of the snapshot in `sessionDir`: take it before reading the files, so a later change is noticed. */
export function stamped(row: IndexRow, stamp: string): IndexRow {
  return { ...row, snapshotStamp: stamp };
}
