/**
 * Assembling a search index file's parts (file store): sessions read again, unchanged sessions'
 * bytes copied from the file that holds them, and sessions gone marked so (search-index-update.ts).
 */
import { fold } from '../../../search/fold.js';
import { searchableMessages } from '../../../search/rank.js';
import type { IndexRow } from '../../../session/api/listing.js';
import type { SessionSnapshot } from '../../../session/api/data.js';
import { complete, originalRecord, type Complete, type IndexedSession, type IndexParts, type LoadedIndex } from './search-index-file.js';
import { readAll as readEntries, readOne } from './search-index-blocks.js';

/** Sessions read at once while (re)building. */
const READ_BATCH = 16;

/**
 * The key of a session no longer listed (moved to the trash, removed): an entry in the recent file
 * that hides the base's, with no messages and no title. No row has it, so a session that comes back is indexed again.
 */
export const GONE = 'gone';

/** Where a session's messages are: which file, which entry. */
export interface Entry {
  index: LoadedIndex;
  position: number;
  session: IndexedSession;
}

/** Where each session is (the latest file that holds it). */
export type Entries = Pick<Map<string, Entry>, 'get'>;

/** What a row says about its session's content: when it changes, the session is indexed again. */
export function keyOf(row: IndexRow): string {
  return `${row.journalSeq}/${row.updatedAt}/${row.messageCount}/${row.problem?.kind ?? ''}`;
}

/** The `updatedAt` a key records (ranking needs no more of the row). */
export function updatedOf(key: string): number {
  return Number(key.split('/')[1] ?? 0);
}

/** One session of a new file: read again (`row`, `snapshot`), copied (`entry`), or gone. */
export type Item = { row: IndexRow; snapshot: SessionSnapshot | undefined } | { entry: Entry } | { gone: string };

/** Reads these sessions; one that cannot be read (damaged beyond its journal, a newer version) is indexed empty until its row changes. */
export async function readAll(rows: readonly IndexRow[], read: (id: string) => Promise<SessionSnapshot>): Promise<Map<string, SessionSnapshot | undefined>> {
  const out = new Map<string, SessionSnapshot | undefined>();
  for (let start = 0; start < rows.length; start += READ_BATCH) {
    const batch = rows.slice(start, start + READ_BATCH);
    const snapshots = await Promise.all(batch.map((row) => read(row.id).catch(() => undefined)));
    batch.forEach((row, i) => out.set(row.id, snapshots[i]));
  }
  return out;
}

/** An index of `rows`: the sessions in `snapshots` from them, the others copied from their entries. */
export async function build(rows: readonly IndexRow[], entries: Entries, snapshots: Map<string, SessionSnapshot | undefined>): Promise<Complete> {
  return buildItems(
    rows.map((row) => {
      const entry = entries.get(row.id);
      return snapshots.has(row.id) || !entry ? { row, snapshot: snapshots.get(row.id) } : { entry };
    }),
  );
}

/** A file's sections in memory, for copying sessions from it. */
interface Whole {
  first: Uint32Array;
  text: Buffer;
  textOffsets: Uint32Array;
  originals: Buffer;
  originalOffsets: Uint32Array;
}

/** Every section of a file read (and checked) whole: a new file copies from all of it. */
async function wholeOf(index: LoadedIndex): Promise<Whole> {
  const [text, textOffsets, originals, originalOffsets] = await Promise.all([
    readOne(index.text, 0, index.text.length), readEntries(index.textOffsets), readOne(index.originals, 0, index.originals.length), readEntries(index.originalOffsets),
  ]);
  return { first: index.first, text, textOffsets, originals, originalOffsets };
}

/** An index of these items, in this order. */
export async function buildItems(items: readonly Item[]): Promise<Complete> {
  const builder = new Builder();
  // Each file copied from, read once.
  const wholes = new Map<LoadedIndex, Whole>();
  for (const item of items) {
    if ('gone' in item) builder.gone(item.gone);
    else if ('row' in item) builder.add(item.row, item.snapshot);
    else {
      const { index } = item.entry;
      if (!wholes.has(index)) wholes.set(index, await wholeOf(index));
      builder.copy(item.entry, wholes.get(index)!);
    }
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

  gone(id: string): void {
    this.sessions.push({ id, key: GONE, title: '', first: this.textOffsets.length });
  }

  /** An unchanged session: its bytes and offsets as they are in its file, shifted. */
  copy({ position, session }: Entry, index: Whole): void {
    this.sessions.push({ ...session, first: this.textOffsets.length });
    const a = index.first[position]!;
    const b = index.first[position + 1]!;
    const t0 = index.textOffsets[a]!;
    const o0 = index.originalOffsets[a]!;
    const starts = (offsets: Uint32Array, from: number, base: number): number[] => Array.from(offsets.subarray(a, b), (at) => at - from + base);
    this.push(
      index.text.subarray(t0, index.textOffsets[b]),
      index.originals.subarray(o0, index.originalOffsets[b]),
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
