/**
 * `sessions doctor`'s check of the file store's listing caches (docs/design.md §8): each
 * session's `session.meta.json` and its row in `index.json` are compared with what its snapshot
 * and journal say, and rewritten from them where they disagree. The caches always lose: a
 * snapshot put back by hand under a stale meta file is listed as the snapshot says.
 */
import { join } from 'node:path';
import type { IndexRow } from '../../session/api/listing.js';
import type { CacheFix } from '../../session/format/store.js';
import type { ProjectInfo } from '../../session/api/data.js';
import { sessionIdsIn } from './ids.js';
import { layout } from './layout.js';
import { readMetaSync, writeMeta } from './meta-file.js';
import { updateIndexRow } from './index-store.js';
import { readIndex } from './index-file.js';
import { rowFromFiles, type RowReader } from './summary.js';

/** The fields a listing shows that a stale cache gets wrong. */
const SHOWN = ['title', 'messageCount', 'createdAt', 'updatedAt', 'journalSeq'] as const;

/** Checks (and fixes) the caches of every session of `project`, or only of `only`. */
export async function checkProjectCaches(projectDir: string, project: ProjectInfo, reader: RowReader, only?: string): Promise<CacheFix[]> {
  const sessionsDir = layout.sessions(projectDir);
  const ids = (await sessionIdsIn(sessionsDir).catch(() => [] as string[])).filter((id) => only === undefined || id === only);
  const indexed = await indexRows(projectDir);
  const fixes: CacheFix[] = [];
  for (const id of ids) {
    const dir = join(sessionsDir, id);
    // A directory that cannot be read as a session (an ID reserved, nothing stored) has no cache to check.
    const truth = await rowFromFiles(dir, id, project.path, reader).catch(() => undefined);
    if (!truth) continue;
    // A damaged session's caches are settled by the reading that found it; a live one's by its writer.
    if (truth.problem || truth.status === 'open') continue;
    const meta = readMetaSync(dir, id);
    const metaWrong = meta && differences(meta, truth);
    if (metaWrong) {
      await writeMeta(dir, truth);
      fixes.push({ id, project: project.path, cache: 'meta', was: pick(meta), now: pick(truth) });
    }
    const row = indexed?.get(id);
    const rowWrong = row && differences(row, truth);
    if (rowWrong) {
      await updateIndexRow(projectDir, truth);
      fixes.push({ id, project: project.path, cache: 'index', was: pick(row), now: pick(truth) });
    }
  }
  return fixes;
}

/** The index's rows by ID, its tail folded in; undefined when there is no readable index (the next listing rebuilds it). */
async function indexRows(projectDir: string): Promise<Map<string, IndexRow> | undefined> {
  const read = await readIndex(projectDir);
  return read.kind === 'ok' ? new Map(read.index.rows.map((r) => [r.id, r])) : undefined;
}

function differences(cached: IndexRow, truth: IndexRow): boolean {
  // Not the status: an interrupted session's snapshot says `open`, and the listing works that out.
  return SHOWN.some((k) => cached[k] !== truth[k]);
}

function pick(row: IndexRow): CacheFix['was'] {
  return { title: row.title, messageCount: row.messageCount, updatedAt: row.updatedAt };
}
