/**
 * Full-text search on the file store (issue 11 item 4), shaped as a store method:
 * `searchSessions(query, projects, …)`. Each project's index (search-index-file.ts) is brought
 * up to date with the listing first: a session whose listing row changed since it was indexed
 * (a new message, a title, a /reset) is read again; a missing or damaged index is rebuilt. So
 * nothing is paid per chat turn: the work waits for the next search.
 */
import { join } from 'node:path';
import { fold, foldQuery } from '../search/fold.js';
import { rank, score, toResult, searchableMessages, type MessageHits, type Scored } from '../search/rank.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../search/types.js';
import type { IndexRow } from './index-row.js';
import { summaryFromRow } from './index-row.js';
import { originalRecord, readSearchIndex, writeSearchIndex, type IndexedSession, type LoadedIndex } from './search-index-file.js';
import type { ProjectInfo, SessionSnapshot } from './types.js';

/** Sessions read at once while (re)building. */
const READ_BATCH = 16;

export interface SearchSources {
  /** Reads a session (snapshot + journal) without its lock. */
  read(id: string): Promise<SessionSnapshot>;
  /** Results to return (0: all); default 20. */
  limit?: number;
}

/** Searches the messages, titles and IDs of these projects' sessions (`rows`: each project's listing). */
export async function searchSessions(
  query: string,
  projects: readonly { project: ProjectInfo; rows: readonly IndexRow[] }[],
  sources: SearchSources,
): Promise<SearchResults> {
  const q = foldQuery(query);
  const scored: { scored: Scored; index: LoadedIndex | undefined; session: number }[] = [];
  const reports: SearchIndexReport[] = [];
  const open: LoadedIndex[] = [];
  try {
    for (const { project, rows } of projects) {
      const { index, report } = await upToDate(project, rows, sources.read);
      open.push(index);
      reports.push(report);
      const hits = scan(index, Buffer.from(q.folded));
      const position = new Map(index.header.sessions.map((s, i) => [s.id, i]));
      for (const row of rows) {
        const i = position.get(row.id);
        const s = score(summaryFromRow(row), q.folded, (i !== undefined && hits.get(i)) || { hits: 0 }, i !== undefined ? index.header.sessions[i]!.title : undefined);
        if (s) scored.push({ scored: s, index, session: i ?? -1 });
      }
    }
    const best = rank(scored.map((s) => s.scored), sources.limit ?? 20);
    const where = new Map(scored.map((s) => [s.scored, s]));
    const results: SearchResult[] = [];
    for (const s of best) {
      const { index, session } = where.get(s)!;
      const message = s.best && index ? await index.original(index.first[session]! + s.best.message) : undefined;
      results.push(toResult(s, q.folded, message));
    }
    return { query: q.text, total: scored.length, results, index: reports };
  } finally {
    await Promise.all(open.map((index) => index.close()));
  }
}

/** What a row says about its session's content: when it changes, the session is indexed again. */
function keyOf(row: IndexRow): string {
  return `${row.journalSeq}/${row.updatedAt}/${row.messageCount}/${row.problem?.kind ?? ''}`;
}

/** The project's index, brought up to date with its listing (rebuilt and rewritten when it was not). */
async function upToDate(
  project: ProjectInfo,
  rows: readonly IndexRow[],
  read: (id: string) => Promise<SessionSnapshot>,
): Promise<{ index: LoadedIndex; report: SearchIndexReport }> {
  const path = join(project.dir, 'search.idx');
  const found = await readSearchIndex(path);
  const old = found.kind === 'ok' ? found.index : undefined;
  const known = new Map(old?.header.sessions.map((s, i) => [s.id, { s, i }]));
  const changed = rows.filter((row) => known.get(row.id)?.s.key !== keyOf(row));
  if (old && changed.length === 0 && old.header.sessions.length === rows.length) {
    return { index: old, report: { project: project.path, state: 'fresh', reindexed: 0 } };
  }
  const fresh = new Map<string, SessionSnapshot | undefined>();
  for (let start = 0; start < changed.length; start += READ_BATCH) {
    const batch = changed.slice(start, start + READ_BATCH);
    // A session that cannot be read (damaged beyond its journal, a newer version) is indexed empty until its row changes.
    const snapshots = await Promise.all(batch.map((row) => read(row.id).catch(() => undefined)));
    batch.forEach((row, i) => fresh.set(row.id, snapshots[i]));
  }
  const sessions: IndexedSession[] = [];
  const texts: Buffer[] = [];
  const originals: Buffer[] = [];
  let oldOriginals: Buffer[] | undefined;
  for (const row of rows) {
    const entry: IndexedSession = { id: row.id, key: keyOf(row), title: fold(row.title ?? ''), first: texts.length };
    sessions.push(entry);
    const before = known.get(row.id);
    if (old && before && !fresh.has(row.id)) {
      // An unchanged session: its bytes as they are.
      oldOriginals ??= await old.originals();
      for (let m = old.first[before.i]!; m < old.first[before.i + 1]!; m++) {
        texts.push(old.text.subarray(old.textOffsets[m], old.textOffsets[m + 1]));
        originals.push(oldOriginals[m]!);
      }
      continue;
    }
    const snapshot = fresh.get(row.id);
    for (const m of snapshot ? searchableMessages(snapshot) : []) {
      texts.push(Buffer.from(`${fold(m.content)}\0`));
      originals.push(originalRecord(m));
    }
  }
  await old?.close();
  await writeSearchIndex(path, sessions, texts, originals).catch(() => undefined);
  const rebuilt = await readSearchIndex(path);
  if (rebuilt.kind !== 'ok') throw new Error(`the search index ${path} could not be written`);
  const state = found.kind === 'ok' ? 'stale' : found.kind;
  const report: SearchIndexReport = { project: project.path, state, reindexed: fresh.size };
  if (found.kind === 'damaged') report.detail = found.detail;
  return { index: rebuilt.index, report };
}

/** Hits per session (by position in the index): one pass of `Buffer.indexOf` over the folded text. */
function scan(index: LoadedIndex, needle: Buffer): Map<number, MessageHits> {
  const out = new Map<number, MessageHits>();
  if (needle.length === 0) return out;
  const { text, textOffsets, first } = index;
  let message = -1;
  let count = 0;
  const flush = (): void => {
    if (message < 0) return;
    const session = lastAtOrBelow(first, message);
    const hits = out.get(session) ?? { hits: 0 };
    hits.hits += count;
    const at = message - first[session]!;
    if (!hits.best || count >= hits.best.hits) hits.best = { message: at, hits: count };
    out.set(session, hits);
  };
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    if (message < 0 || at >= textOffsets[message + 1]!) {
      flush();
      message = lastAtOrBelow(textOffsets, at);
      count = 0;
    }
    count++;
  }
  flush();
  return out;
}

/** The last position whose value is ≤ `value` in an ascending array (of equal values, the last). */
function lastAtOrBelow(values: Uint32Array, value: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (values[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
