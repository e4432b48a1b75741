/**
 * Full-text search on the file store (issue 11 item 4), shaped as a store method:
 * `searchSessions(query, projects, …)`. Each project's index is brought up to date with its
 * listing first (search-index-update.ts), so nothing is paid per chat turn: the work waits for
 * the next search. Then one pass of `Buffer.indexOf` over the folded text counts the hits.
 */
import { foldQuery } from '../../search/fold.js';
import { rank, score, toResult, type MessageHits, type Scored } from '../../search/rank.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../../search/types.js';
import type { IndexRow } from '../../session/index-row.js';
import { summaryFromRow } from '../../session/index-row.js';
import type { LoadedIndex } from './search-index-file.js';
import { readProjectIndex, upToDate, type Entry } from './search-index-update.js';
import type { SessionSnapshot } from '../../session/types.js';
import type { FileProject } from './project.js';

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
  const found: { scored: Scored; entry: Entry }[] = [];
  const reports: SearchIndexReport[] = [];
  const open: LoadedIndex[] = [];
  try {
    for (const { project, rows: listing } of projects) {
      const [files, rows] = await Promise.all([readProjectIndex(project.dir), listing()]);
      const index = await upToDate(project.dir, project.path, files, rows, sources.read).finally(() => {
        for (const file of [files.base, files.recent]) if (file.kind === 'ok') open.push(file.index);
      });
      reports.push(index.report);
      const hits = new Map(index.indexes.map((file) => [file, scan(file, q.folded, needle)]));
      for (const row of rows) {
        const entry = index.entries.get(row.id)!;
        const s = score(row, q.folded, hits.get(entry.index)!.get(entry.position) ?? { hits: 0 }, entry.session.title);
        if (s) found.push({ scored: { ...s, session: summaryFromRow(row) }, entry });
      }
    }
    const entryOf = new Map(found.map((f) => [f.scored, f.entry]));
    const results: SearchResult[] = [];
    for (const s of rank(found.map((f) => f.scored), sources.limit ?? 20)) {
      const { index, position } = entryOf.get(s)!;
      const message = s.best ? await index.original(index.first[position]! + s.best.message) : undefined;
      results.push(toResult(s, q.folded, message));
    }
    return { query: q.text, total: found.length, results, index: reports };
  } finally {
    await Promise.all(open.map((index) => index.close()));
  }
}

/**
 * The messages of an index that held the last query searched in it (sorted). A query that holds
 * that one (typed on from it, in the session browser) can only hit those messages: only they are
 * scanned. Kept per index object, which stands for exactly the bytes it was read from.
 */
const lastHits = new WeakMap<LoadedIndex, { folded: string; messages: number[] }>();

/**
 * Hits per session (by position in the file): `Buffer.indexOf` over the folded text, all of it
 * or only the messages that held a query this one extends. Messages end in NUL, which no folded
 * query holds, so a hit never spans two messages.
 */
function scan(index: LoadedIndex, folded: string, needle: Buffer): Map<number, MessageHits> {
  const out = new Map<number, MessageHits>();
  if (needle.length === 0) return out;
  const { text, textOffsets, first } = index;
  const last = lastHits.get(index);
  const runs = last && folded.includes(last.folded) ? runsOf(last.messages) : [[0, textOffsets.length - 1] as const];
  const hitMessages: number[] = [];
  let message = -1;
  let count = 0;
  const flush = (): void => {
    if (message < 0) return;
    hitMessages.push(message);
    const session = lastAtOrBelow(first, message);
    const hits = out.get(session) ?? { hits: 0 };
    hits.hits += count;
    const at = message - first[session]!;
    if (!hits.best || count >= hits.best.hits) hits.best = { message: at, hits: count };
    out.set(session, hits);
  };
  for (const [a, b] of runs) {
    const start = textOffsets[a]!;
    const part = text.subarray(start, textOffsets[b]);
    for (let at = part.indexOf(needle); at !== -1; at = part.indexOf(needle, at + needle.length)) {
      if (message < 0 || start + at >= textOffsets[message + 1]!) {
        flush();
        message = lastAtOrBelow(textOffsets, start + at);
        count = 0;
      }
      count++;
    }
  }
  flush();
  lastHits.set(index, { folded, messages: hitMessages });
  return out;
}

/** Sorted message numbers as runs `[first, end)` of consecutive ones. */
function runsOf(messages: readonly number[]): (readonly [number, number])[] {
  const runs: [number, number][] = [];
  for (const m of messages) {
    const run = runs.at(-1);
    if (run && run[1] === m) run[1] = m + 1;
    else runs.push([m, m + 1]);
  }
  return runs;
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
