/**
 * Brings a project's search index up to date (file store). The index is two files of the same
 * format (search-index-file.ts): `search.idx`, the base, and `search.recent.idx`, the sessions
 * new, changed or gone since the base was written, which override their entries in the base. A
 * session whose listing row changed since it was indexed (a new message, a title, a /reset) is
 * read again and goes into the recent file: a search after a chat rewrites that small file, not
 * the whole index. Once the recent file holds a quarter as much text as the base, both are
 * folded into a new base.
 *
 * Two ways in: `upToDate` compares every listing row with its entry (the index missing, or no
 * record of what changed since it was brought up to date); `applyChanges` takes only the rows
 * index.json's log names as changed since then, and the live ones (search-sync.ts).
 */
import { rm } from 'node:fs/promises';
import type { SearchIndexReport } from '../../../session/api/search-data.js';
import type { IndexRow } from '../../../session/api/listing.js';
import { layout } from '../layout.js';
import { readKeptIndex } from './search-index-cache.js';
import { inMemory, writeSearchIndex, type Complete, type LoadedIndex, type ReadIndex } from './search-index-file.js';
import type { SessionSnapshot } from '../../../session/api/data.js';
import { build, buildItems, GONE, keyOf, readAll, type Entries, type Entry, type Item } from './search-index-build.js';

export type { Entry } from './search-index-build.js';

/** The recent file is folded into the base once it holds this share of the base's text. */
const RECENT_SHARE = 0.25;

/** A project's index as searched: its files (open), and each session's entry. */
export interface ProjectIndex {
  indexes: LoadedIndex[];
  entries: ProjectEntries;
  report: SearchIndexReport;
  /** The base and recent files as they are now (what the next change builds on). */
  current: { base: ReadIndex; recent: ReadIndex };
}

const MISSING: ReadIndex = { kind: 'missing' };

const paths = (projectDir: string) => ({ base: layout.searchIndex(projectDir), recent: layout.searchRecent(projectDir) });

/** Reads the project's index files (their text, not the originals), or takes them from memory if they are unchanged since read. */
export async function readProjectIndex(projectDir: string): Promise<{ base: ReadIndex; recent: ReadIndex }> {
  const { base, recent } = paths(projectDir);
  const [b, r] = await Promise.all([readKeptIndex(base), readKeptIndex(recent)]);
  return { base: b, recent: r };
}

/** Each session's entry, and whether an entry of a file is its session's latest (position-wise, for a search's hits). */
export interface ProjectEntries extends Entries {
  latest(index: LoadedIndex, position: number): boolean;
}

export function entriesOf(indexes: LoadedIndex[]): ProjectEntries {
  // Later files override earlier ones: the recent file's sessions win over the base's. Each file
  // finds an ID by binary search (session-table.ts): no map of every session is made.
  const latestFirst = [...indexes].reverse();
  // Per file, the positions a later file overrides: found from the later files' few sessions.
  const hidden = new Map<LoadedIndex, Set<number>>();
  const hiddenIn = (index: LoadedIndex, k: number): Set<number> => {
    let set = hidden.get(index);
    if (!set) {
      set = new Set();
      for (const later of indexes.slice(k + 1)) {
        for (let i = 0; i < later.sessions.count; i++) {
          const position = index.sessions.find(later.sessions.at(i).id);
          if (position !== undefined) set.add(position);
        }
      }
      hidden.set(index, set);
    }
    return set;
  };
  return {
    get(id) {
      for (const index of latestFirst) {
        const position = index.sessions.find(id);
        if (position !== undefined) return { index, position, session: index.sessions.at(position) };
      }
      return undefined;
    },
    latest(index, position) {
      const k = indexes.indexOf(index);
      return k >= 0 && !hiddenIn(index, k).has(position);
    },
  };
}

/**
 * The index of the project at `projectDir` brought up to date with its listing `rows` (`found`:
 * its files as read). Files that are read stay open in `indexes`: the caller closes them.
 */
export async function upToDate(
  projectDir: string,
  projectPath: string,
  found: { base: ReadIndex; recent: ReadIndex },
  rows: readonly IndexRow[],
  read: (id: string) => Promise<SessionSnapshot>,
): Promise<ProjectIndex> {
  const opened = [found.base, found.recent].flatMap((r) => (r.kind === 'ok' ? [r.index] : []));
  const { base, recent } = paths(projectDir);
  if (found.base.kind !== 'ok') {
    // Nothing to build on (a recent file without its base describes changes to a base that is gone).
    const parts = await build(rows, new Map<string, Entry>(), await readAll(rows, read));
    const built = inMemory(parts, await write(base, parts));
    await rm(recent, { force: true }).catch(() => undefined);
    const report: SearchIndexReport = { project: projectPath, state: found.base.kind, reindexed: rows.length };
    if (found.base.kind === 'damaged') report.detail = found.base.detail;
    return { indexes: [...opened, built], entries: entriesOf([built]), report, current: { base: { kind: 'ok', index: built }, recent: MISSING } };
  }
  const entries = entriesOf(opened);
  const listed = new Set(rows.map((row) => row.id));
  // Sessions indexed but no longer listed: hidden by an entry of their own in the recent file.
  const gone = opened.flatMap((index) => index.sessions.all().filter((s) => !listed.has(s.id) && entries.get(s.id)?.session.key !== GONE).map((s) => s.id));
  return applyChanges(projectDir, projectPath, found, rows, [...new Set(gone)], read);
}

/**
 * The index with `rows` (those that may have changed) and `gone` (IDs no longer listed) brought
 * in; every other session as it is indexed. `found.base` must be a sound file.
 */
export async function applyChanges(
  projectDir: string,
  projectPath: string,
  found: { base: ReadIndex; recent: ReadIndex },
  rows: readonly IndexRow[],
  gone: readonly string[],
  read: (id: string) => Promise<SessionSnapshot>,
): Promise<ProjectIndex> {
  if (found.base.kind !== 'ok') throw new Error('search index: changes applied without a base');
  const baseIndex = found.base.index;
  const opened = [found.base, found.recent].flatMap((r) => (r.kind === 'ok' ? [r.index] : []));
  const entries = entriesOf(opened);
  const changed = rows.filter((row) => entries.get(row.id)?.session.key !== keyOf(row));
  const removed = gone.filter((id) => { const entry = entries.get(id); return entry !== undefined && entry.session.key !== GONE; });
  if (changed.length === 0 && removed.length === 0 && found.recent.kind !== 'damaged') return { indexes: opened, entries, report: { project: projectPath, state: 'fresh', reindexed: 0 }, current: found };
  const snapshots = await readAll(changed, read);
  const report: SearchIndexReport = { project: projectPath, state: 'stale', reindexed: changed.length };
  if (found.recent.kind === 'damaged') Object.assign(report, { state: 'damaged', detail: `search.recent.idx: ${found.recent.detail}` });
  const touched = new Set([...changed.map((row) => row.id), ...removed]);
  const fresh: Item[] = [...changed.map((row) => ({ row, snapshot: snapshots.get(row.id) })), ...removed.map((id) => ({ gone: id }))];
  // The sessions the recent file keeps: those it had that did not change, and those just read or gone.
  const kept = (index: LoadedIndex): Item[] => index.sessions.all().filter((s) => !touched.has(s.id)).map((s) => ({ entry: entries.get(s.id)! }));
  const recentItems = [...(found.recent.kind === 'ok' ? kept(found.recent.index) : []), ...fresh];
  const recentParts = await buildItems(recentItems);
  const { base, recent } = paths(projectDir);
  if (recentParts.text.length <= baseIndex.header.textBytes * RECENT_SHARE) {
    const fresher = inMemory(recentParts, await write(recent, recentParts));
    return { indexes: [...opened, fresher], entries: entriesOf([baseIndex, fresher]), report, current: { base: found.base, recent: { kind: 'ok', index: fresher } } };
  }
  // Folded into a new base: every session as its latest entry has it, but the gone.
  const everyone = new Set(opened.flatMap((index) => index.sessions.all().map((s) => s.id)));
  const items: Item[] = [];
  for (const id of everyone) {
    if (touched.has(id)) continue;
    const entry = entries.get(id)!;
    if (entry.session.key !== GONE) items.push({ entry });
  }
  items.push(...changed.map((row) => ({ row, snapshot: snapshots.get(row.id) })));
  const parts = await buildItems(items);
  const built = inMemory(parts, await write(base, parts));
  await rm(recent, { force: true }).catch(() => undefined);
  return { indexes: [...opened, built], entries: entriesOf([built]), report, current: { base: { kind: 'ok', index: built }, recent: MISSING } };
}

/** The index is a cache: a search goes on from memory when it cannot be written (a read-only disk). Resolves to the file's identity when written. */
async function write(path: string, parts: Complete): Promise<string | undefined> {
  return writeSearchIndex(path, parts).catch(() => undefined);
}
