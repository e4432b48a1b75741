/**
 * `search.sync.json`: which of index.json's writes the search index files were last brought up to
 * date with (docs/design.md §18): index.json's epoch and serial (index-log.ts), and the identity of
 * each file (device, inode, size, mtime) as written. A search then reads from index.json's header
 * only the sessions changed since, instead of every row. Trusted only while both files are still
 * the very ones it names; anything else (missing, another file, another epoch, a log that does
 * not reach back) and the search compares every row, as without it.
 */
import { readFile } from 'node:fs/promises';
import { writeCacheFile } from '../atomic-write.js';
import { layout } from '../layout.js';
import type { ReadIndex } from './search-index-file.js';

export interface SyncMark {
  epoch: string;
  serial: number;
  base: string;
  /** `none`: no recent file. */
  recent: string;
}

export async function readSync(projectDir: string): Promise<SyncMark | undefined> {
  try {
    const value = JSON.parse(await readFile(layout.searchSync(projectDir), 'utf8')) as Partial<SyncMark>;
    const ok = typeof value.epoch === 'string' && Number.isInteger(value.serial) && typeof value.base === 'string' && typeof value.recent === 'string';
    return ok ? (value as SyncMark) : undefined;
  } catch {
    return undefined;
  }
}

/** The identities `files` have, as a mark records them; undefined when one has none (damaged, or not written). */
export function identities(files: { base: ReadIndex; recent: ReadIndex }): { base: string; recent: string } | undefined {
  const of = (file: ReadIndex, missing: string | undefined): string | undefined => (file.kind === 'ok' ? file.index.identity : file.kind === 'missing' ? missing : undefined);
  const base = of(files.base, undefined);
  const recent = of(files.recent, 'none');
  return base !== undefined && recent !== undefined ? { base, recent } : undefined;
}

/** True when `mark` names exactly these files. */
export function names(mark: SyncMark, files: { base: ReadIndex; recent: ReadIndex }): boolean {
  const now = identities(files);
  return now !== undefined && now.base === mark.base && now.recent === mark.recent;
}

/**
 * Records the mark (a cache: a failure only means the next search compares every row). Left as
 * it is when it already says so: a search that changed nothing writes nothing.
 */
export async function writeSync(projectDir: string, log: { epoch: string; serial: number }, files: { base: ReadIndex; recent: ReadIndex }): Promise<void> {
  const now = identities(files);
  if (!now) return;
  const text = JSON.stringify({ epoch: log.epoch, serial: log.serial, ...now } satisfies SyncMark);
  const path = layout.searchSync(projectDir);
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return;
  await writeCacheFile(path, text).catch(() => undefined);
}
