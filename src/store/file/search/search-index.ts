/**
 * Full-text search on the file store (docs/design.md §18), shaped as a store method:
 * `searchSessions(query, projects, …)`. Each project's index is brought up to date first
 * (search-prepare.ts), so nothing is paid per chat turn: the work waits for the next search.
 * Then the query's words' postings and `Buffer.indexOf` over the folded text find the sessions
 * whose messages hold it (search-scan.ts), and one scan of the titles and IDs those whose title
 * or ID does (search-names.ts): the cost follows the hits, not the sessions. Only the rows of
 * the results returned are read, by ID; one whose session changed since it was indexed (its
 * snapshot put back by hand, say) is read again and the search asked once more.
 */
import { foldQuery } from '../../../search/fold.js';
import { rank, score, toResult, type Scored } from '../../../search/rank.js';
import { scanIndex, type IndexHits } from './search-scan.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../../../session/api/search-data.js';
import type { IndexRow } from '../../../session/api/listing.js';
import { summaryFromRow } from '../../../session/format/index-row.js';
import type { LoadedIndex } from './search-index-file.js';
import { applyChanges } from './search-index-update.js';
import { GONE, keyOf, updatedOf, type Entry } from './search-index-build.js';
import type { SessionSnapshot } from '../../../session/api/data.js';
import type { FileProject } from '../project.js';
import { prepareProject, type Prepared } from './search-prepare.js';
import { checkedRow, rowById } from '../row-by-id.js';
import { updateIndexRows } from '../index-store.js';
import { writeSync } from './search-sync.js';
import type { RowReader } from '../summary.js';
import { nameMatches } from './search-names.js';
import { IndexDamaged } from './search-index-blocks.js';
import { markDamaged } from './search-index-cache.js';

/** Snippet messages read at once. */
const SNIPPET_READS = 32;

/** A match before its listing row is read. */
interface Found extends Omit<Scored, 'session'> {
  session: { id: string; updatedAt: Date };
  entry: Entry;
  from: Prepared;
}

export interface SearchSources {
  /** Reads a session (snapshot + journal) without its lock. */
  read(id: string): Promise<SessionSnapshot>;
  /** How listing rows are read from a session's files. */
  reader: RowReader;
  /** Results to return (0: all); default 20. */
  limit?: number;
  /** false: no snippets (no original read, none segmented). */
  snippets?: boolean;
}

/**
 * Searches the messages, titles and IDs of these projects' sessions. A file found damaged on the
 * way (a block read that does not match its checksum) is taken as damaged from then on: the
 * search starts again, which rebuilds it and reports it rebuilt, as a file damaged at open is.
 */
export async function searchSessions(query: string, projects: readonly FileProject[], sources: SearchSources): Promise<SearchResults> {
  // Each round rebuilds at least the file found damaged; the base and the recent file of each project at most.
  for (let round = 0; ; round++) {
    try {
      return await searchOnce(query, projects, sources);
    } catch (err) {
      if (!(err instanceof IndexDamaged) || round >= 2 * projects.length) throw err;
      await markDamaged(err.path, err.message);
    }
  }
}

async function searchOnce(query: string, projects: readonly FileProject[], sources: SearchSources): Promise<SearchResults> {
  const q = foldQuery(query);
  const needle = Buffer.from(q.folded);
  const open = new Set<LoadedIndex>();
  const prepared: Prepared[] = [];
  try {
    for (const project of projects) {
      const p = await prepareProject(project, sources.reader, sources.read);
      for (const index of p.index.indexes) open.add(index);
      prepared.push(p);
    }
    for (let round = 0; ; round++) {
      const found = (await Promise.all(prepared.map((p) => matches(p, q.folded, needle)))).flat();
      const ranked = rank(found, sources.limit ?? 20);
      const rows = await Promise.all(ranked.map((f) => shownRow(f, sources.reader)));
      // A result whose session is not as indexed: brought in, and the search asked again (once).
      const changed = new Map<Prepared, { rows: IndexRow[]; gone: string[] }>();
      ranked.forEach((f, i) => {
        const row = rows[i];
        if (row && keyOf(row) === f.entry.session.key) return;
        const of = changed.get(f.from) ?? { rows: [], gone: [] };
        if (row) of.rows.push(row);
        else of.gone.push(f.session.id);
        changed.set(f.from, of);
      });
      if (changed.size === 0 || round > 0) return { query: q.text, total: found.length, results: await resultsOf(ranked, rows, q.folded, sources.snippets !== false), index: prepared.map((p) => p.index.report) };
      for (const [p, { rows: fresh, gone }] of changed) {
        if (fresh.length > 0) await updateIndexRows(p.project.dir, fresh).catch(() => undefined);
        const before: SearchIndexReport = p.index.report;
        p.index = await applyChanges(p.project.dir, p.project.path, p.index.current, fresh, gone, sources.read);
        p.index.report = { ...before, state: before.state === 'fresh' ? 'stale' : before.state, reindexed: before.reindexed + p.index.report.reindexed };
        for (const index of p.index.indexes) open.add(index);
        if (p.log) await writeSync(p.project.dir, p.log, p.index.current);
      }
    }
  } finally {
    await Promise.all([...open].map((index) => index.close()));
  }
}

/** The sessions of one project that match: message hits, title or ID, each session in its latest entry only. */
async function matches(p: Prepared, folded: string, needle: Buffer): Promise<Found[]> {
  const out = new Map<string, Found>();
  const hitsOf = new Map<LoadedIndex, IndexHits>();
  for (const index of p.index.indexes) hitsOf.set(index, await scanIndex(index, folded, needle));
  // A hit counts in its session's latest entry only, found by position: no ID decoded for the others.
  const consider = (index: LoadedIndex, position: number): void => {
    if (!p.index.entries.latest(index, position)) return;
    const session = index.sessions.at(position);
    if (session.key === GONE || out.has(session.id)) return;
    const s = score({ id: session.id, title: null }, folded, hitsOf.get(index)!.of(position), session.title);
    if (!s) return;
    // Field by field, as `score` builds it: a spread costs microseconds a session, and every session may match.
    const found: Found = { hits: s.hits, idMatch: s.idMatch, titleHits: s.titleHits, session: { id: session.id, updatedAt: new Date(updatedOf(session.key)) }, entry: { index, position, session }, from: p };
    if (s.best) found.best = s.best;
    out.set(session.id, found);
  };
  for (const index of p.index.indexes) {
    for (const position of hitsOf.get(index)!.sessions) consider(index, position);
    for (const position of nameMatches(index, needle)) consider(index, position);
  }
  return [...out.values()];
}

/** The row a result shows: known, or found by ID; a closed one checked against its snapshot's stamp. Undefined: gone. */
async function shownRow(f: Found, reader: RowReader): Promise<IndexRow | undefined> {
  const { project, known } = f.from;
  const row = known.get(f.session.id);
  return row ? checkedRow(project.dir, project.path, row, reader) : rowById(project.dir, project.path, f.session.id, reader);
}

/** The results with their snippets, the messages read a batch at a time (each read is a round trip to the thread pool). */
async function resultsOf(ranked: Found[], rows: (IndexRow | undefined)[], folded: string, snippets: boolean): Promise<SearchResult[]> {
  const results: SearchResult[] = [];
  for (let start = 0; start < ranked.length; start += SNIPPET_READS) {
    const batch = ranked.slice(start, start + SNIPPET_READS).map(async (f, i) => {
      const { index, position } = f.entry;
      const message = snippets && f.best ? await index.original(index.first[position]! + f.best.message) : undefined;
      return toResult({ ...f, session: summaryFromRow(rows[start + i]!) }, folded, message);
    });
    results.push(...(await Promise.all(batch)));
  }
  return results;
}
