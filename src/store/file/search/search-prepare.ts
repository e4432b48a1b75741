/**
 * A project's search index made ready for a query (file store, docs/design.md §18), and the rows
 * it already knows. When `search.sync.json` names the index files as they are and index.json's
 * header still logs every write since the serial it records, only the sessions that log names
 * and the live ones at the head of index.json (those not closed) are compared with the index:
 * the search reads no other row. Otherwise every row of the listing is compared, as the
 * listing reads them, and the mark is recorded for the next search.
 */
import type { IndexRow } from '../../../session/api/listing.js';
import type { SessionSnapshot } from '../../../session/api/data.js';
import { headRows, readHead } from '../index-head.js';
import { changedSince } from '../index-log.js';
import { listProject, refreshLive, sessionsMtime } from '../index-store.js';
import { layout } from '../layout.js';
import type { FileProject } from '../project.js';
import { rowById } from '../row-by-id.js';
import type { RowReader } from '../summary.js';
import { applyChanges, readProjectIndex, upToDate, type ProjectIndex } from './search-index-update.js';
import { names, readSync, writeSync } from './search-sync.js';

export interface Prepared {
  project: FileProject;
  index: ProjectIndex;
  /** Rows read on the way (every row when the whole listing was read); any other is found by ID. */
  known: Map<string, IndexRow>;
  /** The index.json write the index is up to date with, for the mark; undefined when it cannot say. */
  log: { epoch: string; serial: number } | undefined;
}

export async function prepareProject(project: FileProject, reader: RowReader, read: (id: string) => Promise<SessionSnapshot>): Promise<Prepared> {
  const dir = project.dir;
  const [mtime, head, mark, files] = await Promise.all([sessionsMtime(dir), readHead(layout.index(dir)), readSync(dir), readProjectIndex(dir)]);
  const log = head?.header.log;
  const logged = log ? { epoch: log.epoch, serial: log.serial } : undefined;
  // Sessions created or removed since index.json was written change the directory's mtime: then it is the whole listing.
  const usable = head !== undefined && log !== undefined && mark !== undefined && head.header.sessionsMtimeMs === mtime && files.base.kind === 'ok' && names(mark, files);
  const since = usable ? changedSince(log, mark.epoch, mark.serial) : undefined;
  const parsed = since ? headRows(head!) : [];
  if (since && parsed.length > head!.header.lastLive) {
    // Rows not closed (or with a problem) are all in the head (index-head.ts): brought up to date as the listing does.
    const live = await refreshLive(dir, project.path, parsed.slice(0, head!.header.lastLive + 1), reader, 0);
    const known = new Map(live.map((row) => [row.id, row]));
    const inHead = new Map(parsed.map((row) => [row.id, row]));
    const gone: string[] = [];
    for (const id of since) {
      if (known.has(id)) continue;
      const row = inHead.get(id) ?? (await rowById(dir, project.path, id, reader));
      if (row) known.set(id, row);
      else gone.push(id);
    }
    const index = await applyChanges(dir, project.path, files, [...known.values()], gone, read);
    await writeSync(dir, logged!, index.current);
    return { project, index, known, log: logged };
  }
  // The header was read before the listing: the rows listed are at least as new as the write it names.
  const rows = await listProject(dir, project.path, reader);
  const index = await upToDate(dir, project.path, files, rows, read);
  if (logged) await writeSync(dir, logged, index.current);
  return { project, index, known: new Map(rows.map((row) => [row.id, row])), log: logged };
}
