/**
 * Brings a project's search index up to date with its listing (file store). The index is two
 * files of the same format (search-index-file.ts): `search.idx`, the base, and
 * `search.recent.idx`, the sessions new or changed since the base was written, which override
 * their entries in the base. A session whose listing row changed since it was indexed (a new
 * message, a title, a /reset) is read again and goes into the recent file: a search after a chat
 * rewrites that small file, not the whole index. Once the recent file holds a quarter as much
 * text as the base, both are folded into a new base.
 */
import { rm } from 'node:fs/promises';
import { fold } from '../../../search/fold.js';
import { searchableMessages } from '../../../search/rank.js';
import type { SearchIndexReport } from '../../../session/api/search-data.js';
import type { IndexRow } from '../../../session/api/listing.js';
import { layout } from '../layout.js';
import { readKeptIndex } from './search-index-cache.js';
import {
  complete, inMemory, originalRecord, writeSearchIndex, type IndexedSession, type Complete, type IndexParts, type LoadedIndex, type ReadIndex,
} from './search-index-file.js';
import type { SessionSnapshot } from '../../../session/api/data.js';

/** Sessions read at once while (re)building. */
const READ_BATCH = 16;
/** The recent file is folded into the base once it holds this share of the base's text. */
const RECENT_SHARE = 0.25;

/** Where a session's messages are: which file, which entry. */
export interface Entry {
  index: LoadedIndex;
  position: number;
  session: IndexedSession;
}

/** Where each session is (the latest file that holds it). */
export type Entries = Pick<Map<string, Entry>, 'get'>;

/** A project's index as searched: its files (open), and each session's entry. */
export interface ProjectIndex {
  indexes: LoadedIndex[];
  entries: Entries;
  report: SearchIndexReport;
}

const paths = (projectDir: string) => ({ base: layout.searchIndex(projectDir), recent: layout.searchRecent(projectDir) });

/** Reads the project's index files (their text, not the originals), or takes them from memory if they are unchanged since read. */
export async function readProjectIndex(projectDir: string): Promise<{ base: ReadIndex; recent: ReadIndex }> {
  const { base, recent } = paths(projectDir);
  const [b, r] = await Promise.all([readKeptIndex(base), readKeptIndex(recent)]);
  return { base: b, recent: r };
}

/** What a row says about its session's content: when it changes, the session is indexed again. */
function keyOf(row: IndexRow): string {
  return `${row.journalSeq}/${row.updatedAt}/${row.messageCount}/${row.problem?.kind ?? ''}`;
}

/** Each session's entry in one index file, made once per index read (a file kept in memory is searched many times). */
const entriesByIndex = new WeakMap<LoadedIndex, Map<string, Entry>>();

function entriesIn(index: LoadedIndex): Map<string, Entry> {
  let entries = entriesByIndex.get(index);
  if (!entries) {
    entries = new Map(index.header.sessions.map((session, position) => [session.id, { index, position, session }]));
    entriesByIndex.set(index, entries);
  }
  return entries;
}

function entriesOf(indexes: LoadedIndex[]): Entries {
  // Later files override earlier ones: the recent file's sessions win over the base's.
  const maps = indexes.map(entriesIn).reverse();
  return {
    get(id) {
      for (const map of maps) {
        const entry = map.get(id);
        if (entry) return entry;
      }
      return undefined;
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
    const snapshots = await readAll(rows, read);
    const parts = await build(rows, new Map<string, Entry>(), snapshots);
    await write(base, parts);
    await rm(recent, { force: true }).catch(() => undefined);
    const built = inMemory(parts);
    const report: SearchIndexReport = { project: projectPath, state: found.base.kind, reindexed: rows.length };
    if (found.base.kind === 'damaged') report.detail = found.base.detail;
    return { indexes: [...opened, built], entries: entriesOf([built]), report };
  }
  const baseIndex = found.base.index;
  const entries = entriesOf(opened);
  const changed = rows.filter((row) => entries.get(row.id)?.session.key !== keyOf(row));
  if (changed.length === 0 && found.recent.kind !== 'damaged') return { indexes: opened, entries, report: { project: projectPath, state: 'fresh', reindexed: 0 } };
  const snapshots = await readAll(changed, read);
  const report: SearchIndexReport = { project: projectPath, state: 'stale', reindexed: changed.length };
  if (found.recent.kind === 'damaged') Object.assign(report, { state: 'damaged', detail: `search.recent.idx: ${found.recent.detail}` });
  // The sessions the recent file keeps: those it had that are unchanged, and those just read.
  const kept = rows.filter((row) => snapshots.has(row.id) || entries.get(row.id)?.index !== baseIndex);
  const recentParts = await build(kept, entries, snapshots);
  if (recentParts.text.length <= baseIndex.text.length * RECENT_SHARE) {
    await write(recent, recentParts);
    const fresher = inMemory(recentParts);
    return { indexes: [...opened, fresher], entries: entriesOf([baseIndex, fresher]), report };
  }
  const parts = await build(rows, entries, snapshots);
  await write(base, parts);
  await rm(recent, { force: true }).catch(() => undefined);
  const built = inMemory(parts);
  return { indexes: [...opened, built], entries: entriesOf([built]), report };
}

/** The index is a cache: a search goes on from memory when it cannot be written (a read-only disk). */
async function write(path: string, parts: Complete): Promise<void> {
  await writeSearchIndex(path, parts).catch(() => undefined);
}

/** Reads these sessions; one that cannot be read (damaged beyond its journal, a newer version) is indexed empty until its row changes. */
async function readAll(rows: readonly IndexRow[], read: (id: string) => Promise<SessionSnapshot>): Promise<Map<string, SessionSnapshot | undefined>> {
  const out = new Map<string, SessionSnapshot | undefined>();
  for (let start = 0; start < rows.length; start += READ_BATCH) {
    const batch = rows.slice(start, start + READ_BATCH);
    const snapshots = await Promise.all(batch.map((row) => read(row.id).catch(() => undefined)));
    batch.forEach((row, i) => out.set(row.id, snapshots[i]));
  }
  return out;
}

/** An index of `rows`: the sessions in `snapshots` from them, the others copied from their entries. */
async function build(rows: readonly IndexRow[], entries: Entries, snapshots: Map<string, SessionSnapshot | undefined>): Promise<Complete> {
  const builder = new Builder();
  // The originals section of each file copied from, read once.
  const originals = new Map<LoadedIndex, Buffer>();
  for (const row of rows) {
    const entry = entries.get(row.id);
    if (snapshots.has(row.id) || !entry) {
      builder.add(row, snapshots.get(row.id));
      continue;
    }
    if (!originals.has(entry.index)) originals.set(entry.index, await entry.index.originals());
    builder.copy(entry, originals.get(entry.index)!);
  }
  // The word postings are made from the new file's text whole: none can outlive the text it named.
  return complete(builder.finish());
}

/** Assembles an index: sessions read again, and unchanged sessions' bytes copied as they are. */
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

  /** An unchanged session: its bytes and offsets as they are in its file, shifted. */
  copy({ index, position, session }: Entry, originals: Buffer): void {
    this.sessions.push({ ...session, first: this.textOffsets.length });
    const a = index.first[position]!;
    const b = index.first[position + 1]!;
    const t0 = index.textOffsets[a]!;
    const o0 = index.originalOffsets[a]!;
    const starts = (offsets: Uint32Array, from: number, base: number): number[] => Array.from(offsets.subarray(a, b), (at) => at - from + base);
    this.push(
      index.text.subarray(t0, index.textOffsets[b]),
      originals.subarray(o0, index.originalOffsets[b]),
      starts(index.textOffsets, t0, this.textBytes),
      starts(index.originalOffsets, o0, this.originalBytes),
    );
  }

  /** Appends the bytes of some messages, with where each of them starts in the new index. */
  private push(text: Buffer, original: Buffer, textStarts: number[], originalStarts: number[]): void {
    for (const at of textStarts) this.textOffsets.push(at);
    for (const at of originalStarts) this.originalOffsets.push(at);
    this.texts.push(text);
    this.originals.push(original);
    this.textBytes += text.length;
    this.originalBytes += original.length;
  }

  finish(): IndexParts {
    const ends = (offsets: number[], total: number): Uint32Array => {
      if (total > 0xffffffff) throw new Error('search index over 4 GiB');
      const out = new Uint32Array(offsets.length + 1);
      out.set(offsets);
      out[offsets.length] = total;
      return out;
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
