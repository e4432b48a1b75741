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
import { inMemory, originalRecord, readSearchIndex, writeSearchIndex, type IndexedSession, type LoadedIndex } from './search-index-file.js';
import type { ProjectInfo, SessionSnapshot } from './types.js';

/** Sessions read at once while (re)building. */
const READ_BATCH = 16;

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
  projects: readonly { project: ProjectInfo; rows: () => Promise<IndexRow[]> }[],
  sources: SearchSources,
): Promise<SearchResults> {
  const q = foldQuery(query);
  const needle = Buffer.from(q.folded);
  const found: { scored: Scored; index: LoadedIndex; session: number }[] = [];
  const reports: SearchIndexReport[] = [];
  const open: LoadedIndex[] = [];
  try {
    for (const { project, rows: listing } of projects) {
      const path = join(project.dir, 'search.idx');
      const [read, rows] = await Promise.all([readSearchIndex(path), listing()]);
      if (read.kind === 'ok') open.push(read.index);
      const { index, report } = await upToDate(path, project.path, read, rows, sources.read);
      if (index !== (read.kind === 'ok' ? read.index : undefined)) open.push(index);
      reports.push(report);
      const hits = scan(index, needle);
      const position = new Map(index.header.sessions.map((s, i) => [s.id, i]));
      for (const row of rows) {
        const i = position.get(row.id)!;
        const s = score(summaryFromRow(row), q.folded, hits.get(i) ?? { hits: 0 }, index.header.sessions[i]!.title);
        if (s) found.push({ scored: s, index, session: i });
      }
    }
    const where = new Map(found.map((f) => [f.scored, f]));
    const results: SearchResult[] = [];
    for (const s of rank(found.map((f) => f.scored), sources.limit ?? 20)) {
      const { index, session } = where.get(s)!;
      const message = s.best ? await index.original(index.first[session]! + s.best.message) : undefined;
      results.push(toResult(s, q.folded, message));
    }
    return { query: q.text, total: found.length, results, index: reports };
  } finally {
    await Promise.all(open.map((index) => index.close()));
  }
}

/** What a row says about its session's content: when it changes, the session is indexed again. */
function keyOf(row: IndexRow): string {
  return `${row.journalSeq}/${row.updatedAt}/${row.messageCount}/${row.problem?.kind ?? ''}`;
}

/** The index, brought up to date with the listing `rows` (rebuilt and rewritten when it was not). */
async function upToDate(
  path: string,
  projectPath: string,
  found: Awaited<ReturnType<typeof readSearchIndex>>,
  rows: readonly IndexRow[],
  read: (id: string) => Promise<SessionSnapshot>,
): Promise<{ index: LoadedIndex; report: SearchIndexReport }> {
  const old = found.kind === 'ok' ? found.index : undefined;
  const known = new Map(old?.header.sessions.map((s, i) => [s.id, { s, i }]));
  const changed = rows.filter((row) => known.get(row.id)?.s.key !== keyOf(row));
  if (old && changed.length === 0 && old.header.sessions.length === rows.length) {
    return { index: old, report: { project: projectPath, state: 'fresh', reindexed: 0 } };
  }
  const fresh = new Map<string, SessionSnapshot | undefined>();
  for (let start = 0; start < changed.length; start += READ_BATCH) {
    const batch = changed.slice(start, start + READ_BATCH);
    // A session that cannot be read (damaged beyond its journal, a newer version) is indexed empty until its row changes.
    const snapshots = await Promise.all(batch.map((row) => read(row.id).catch(() => undefined)));
    batch.forEach((row, i) => fresh.set(row.id, snapshots[i]));
  }
  const builder = new Builder();
  const oldOriginals = old && changed.length < rows.length ? await old.originals() : undefined;
  for (const row of rows) {
    const before = known.get(row.id);
    if (old && oldOriginals && before && !fresh.has(row.id)) builder.copy(before.s, old, before.i, oldOriginals);
    else builder.add(row, fresh.get(row.id));
  }
  const parts = builder.finish();
  // The index is a cache: a search goes on from memory when it cannot be written (a read-only disk).
  await writeSearchIndex(path, parts).catch(() => undefined);
  const report: SearchIndexReport = { project: projectPath, state: found.kind === 'ok' ? 'stale' : found.kind, reindexed: fresh.size };
  if (found.kind === 'damaged') report.detail = found.detail;
  return { index: inMemory(parts), report };
}

/** Assembles a new index: sessions read again, and runs of bytes copied from the old one. */
class Builder {
  private readonly sessions: IndexedSession[] = [];
  private readonly texts: Buffer[] = [];
  private readonly originals: Buffer[] = [];
  private readonly textOffsets: number[] = [];
  private readonly originalOffsets: number[] = [];
  private textBytes = 0;
  private originalBytes = 0;

  add(row: IndexRow, snapshot: SessionSnapshot | undefined): void {
    this.sessions.push({ id: row.id, key: keyOf(row), title: fold(row.title ?? ''), first: this.textOffsets.length });
    for (const m of snapshot ? searchableMessages(snapshot) : []) {
      this.push(Buffer.from(`${fold(m.content)}\0`), originalRecord(m), [this.textBytes], [this.originalBytes]);
    }
  }

  /** An unchanged session: its bytes and offsets as they are in the old index, shifted. */
  copy(entry: IndexedSession, old: LoadedIndex, session: number, oldOriginals: Buffer): void {
    this.sessions.push({ ...entry, first: this.textOffsets.length });
    const a = old.first[session]!;
    const b = old.first[session + 1]!;
    const t0 = old.textOffsets[a]!;
    const o0 = old.originalOffsets[a]!;
    const starts = (offsets: Uint32Array, from: number, base: number): number[] => Array.from(offsets.subarray(a, b), (at) => at - from + base);
    this.push(
      old.text.subarray(t0, old.textOffsets[b]),
      oldOriginals.subarray(o0, old.originalOffsets[b]),
      starts(old.textOffsets, t0, this.textBytes),
      starts(old.originalOffsets, o0, this.originalBytes),
    );
  }

  /** Appends the bytes of some messages, with where each of them starts in the new index. */
  private push(text: Buffer, original: Buffer, textStarts: number[], originalStarts: number[]): void {
    this.textOffsets.push(...textStarts);
    this.originalOffsets.push(...originalStarts);
    this.texts.push(text);
    this.originals.push(original);
    this.textBytes += text.length;
    this.originalBytes += original.length;
  }

  finish() {
    const ends = (offsets: number[], total: number): Uint32Array => {
      if (total > 0xffffffff) throw new Error('search index over 4 GiB');
      return Uint32Array.from([...offsets, total]);
    };
    return {
      sessions: this.sessions,
      text: Buffer.concat(this.texts, this.textBytes),
      textOffsets: ends(this.textOffsets, this.textBytes),
      originals: Buffer.concat(this.originals, this.originalBytes),
      originalOffsets: ends(this.originalOffsets, this.originalBytes),
    };
  }
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
