import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexRow } from '../../session/api/listing.js';
import { staleRow } from './index-store.js';
import { layout } from './layout.js';
import { readMetaSync } from './meta-file.js';
import { rowFromFiles, type RowReader } from './summary.js';

/**
 * One session's listing row found by its ID, without reading the project's listing: its meta file
 * while the snapshot still has the stamp it records (docs/design.md §8), else the files
 * themselves. Undefined when the session is no longer in the project (moved to the trash, removed).
 */
export async function rowById(projectDir: string, projectPath: string, id: string, reader: RowReader): Promise<IndexRow | undefined> {
  const dir = join(layout.sessions(projectDir), id);
  if (!existsSync(dir)) return undefined;
  const meta = readMetaSync(dir, id);
  if (meta && meta.status === 'closed' && !meta.problem) return (await staleRow(dir, meta, projectPath, reader)) ?? meta;
  return rowFromFiles(dir, id, projectPath, reader).catch(() => undefined);
}

/** `row` as its files say when it is a closed row whose snapshot changed since (one stat); else `row`. */
export async function checkedRow(projectDir: string, projectPath: string, row: IndexRow, reader: RowReader): Promise<IndexRow> {
  if (row.status !== 'closed' || row.problem) return row;
  return (await staleRow(join(layout.sessions(projectDir), row.id), row, projectPath, reader)) ?? row;
}
