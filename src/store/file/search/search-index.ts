/**
 * Full-text search on the file store (docs/design.md §18), shaped as a store method:
 * `searchSessions(query, projects, …)`. Each project's index is brought up to date with its
 * listing first (search-index-update.ts), so nothing is paid per chat turn: the work waits for
 * the next search. Then `Buffer.indexOf` over the folded text counts the hits (search-scan.ts).
 */
import { foldQuery } from '../../../search/fold.js';
import { rank, score, toResult, type Scored } from '../../../search/rank.js';
import { scanIndex } from './search-scan.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../../../session/api/search-data.js';
import type { IndexRow } from '../../../session/api/listing.js';
import { summaryFromRow } from '../../../session/format/index-row.js';
import type { LoadedIndex } from './search-index-file.js';
import { readProjectIndex, upToDate, type Entry } from './search-index-update.js';
import type { SessionSnapshot } from '../../../session/api/data.js';
import type { FileProject } from '../project.js';

/** Snippet messages read at once. */
const SNIPPET_READS = 32;

/** A match before its listing row's summary is made. */
interface Found extends Omit<Scored, 'session'> {
  session: { id: string; updatedAt: Date };
  row: IndexRow;
  entry: Entry;
}

export interface SearchSources {
  /** Reads a session (snapshot + journal) without its lock. */
  read(id: string): Promise<SessionSnapshot>;
  /** Results to return (0: all); default 20. */
  limit?: number;
}

/**
 * Searches the messages, titles and IDs of these projects' sessions. `rows`: makes each project's
 * listing (called while its index is read).
 */
export async function searchSessions(
  query: string,
  projects: readonly { project: FileProject; rows: () => Promise<IndexRow[]> }[],
  sources: SearchSources,
): Promise<SearchResults> {
  const q = foldQuery(query);
  const needle = Buffer.from(q.folded);
  const found: Found[] = [];
  const reports: SearchIndexReport[] = [];
  const open: LoadedIndex[] = [];
  try {
    for (const { project, rows: listing } of projects) {
      const [files, rows] = await Promise.all([readProjectIndex(project.dir), listing()]);
      const index = await upToDate(project.dir, project.path, files, rows, sources.read).finally(() => {
        for (const file of [files.base, files.recent]) if (file.kind === 'ok') open.push(file.index);
      });
      reports.push(index.report);
      const hits = new Map(index.indexes.map((file) => [file, scanIndex(file, q.folded, needle)]));
      for (const row of rows) {
        const entry = index.entries.get(row.id)!;
        const s = score(row, q.folded, hits.get(entry.index)!.of(entry.position), entry.session.title);
        // The listing row's summary is made for the results only (a common word matches every session).
        if (s) found.push({ ...s, session: { id: row.id, updatedAt: new Date(row.updatedAt) }, row, entry });
      }
    }
    // The snippets' messages read a batch at a time (not one after another: each read is a round trip to the thread pool).
    const ranked = rank(found, sources.limit ?? 20);
    const results: SearchResult[] = [];
    for (let start = 0; start < ranked.length; start += SNIPPET_READS) {
      const batch = ranked.slice(start, start + SNIPPET_READS).map(async (f) => {
        const { index, position } = f.entry;
        const message = f.best ? await index.original(index.first[position]! + f.best.message) : undefined;
        return toResult({ ...f, session: summaryFromRow(f.row) }, q.folded, message);
      });
      results.push(...(await Promise.all(batch)));
    }
    return { query: q.text, total: found.length, results, index: reports };
  } finally {
    await Promise.all(open.map((index) => index.close()));
  }
}
