/**
 * `projects/<slug>/search.idx`: the file store's full-text index of one project (a cache: it
 * can always be rebuilt from the sessions). One file, so that it is replaced whole; its layout is
 * in search-index-layout.ts.
 *
 * Opening it reads only what is sized by the sessions and the words: the table of contents (the
 * sessions, the counts), checked by its CRC-32, then the block checksums, the vocabulary and where
 * each word's postings are, checked by the CRC-32 the table holds. A search then reads by offset
 * the postings of its words, the text of the messages they name and the originals of the messages
 * it shows, each block checked as it is read (search-index-blocks.ts): what a search costs follows
 * its hits, not the size of the file, and every byte it relies on is checked. A torn or garbled
 * file is rebuilt, never trusted. Integers are in the host's byte order: a file moved to a host of
 * the other order fails the checks and is rebuilt.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { FILE_MODE, tempPath } from '../atomic-write.js';
import { errno } from '../../../util/errno.js';
import type { Role } from '../../../session/api/data.js';
import { crc32 } from './checksum.js';
import { buildWordIndex, type WordIndex } from './word-index.js';
import { bytesOf, checkedBytes, readOne, u32sOf, u32sOn, type Bytes, type U32s } from './search-index-blocks.js';
import { align, BLOCK, LAZY, layoutOf, MAGIC, PREAMBLE, VERSION, type IndexHeader, type Lazy, type Table } from './search-index-layout.js';
import { decodeSessions, encodeSessions, TableDamage, tableOf, type IndexedSession, type SessionTable } from './session-table.js';

export type { IndexHeader } from './search-index-layout.js';
export type { IndexedSession } from './session-table.js';

/** The word postings of an index as searched: the vocabulary in memory, the postings read by range. */
export interface WordLookup extends Omit<WordIndex, 'postings'> {
  postings: U32s;
}

/** An index as searched: the sessions and words in memory, the rest read where needed. */
export interface LoadedIndex {
  header: IndexHeader;
  /** The file it was read from or written to (device, inode, size, mtime), when there is one: what `search.sync.json` names. */
  identity?: string;
  sessions: SessionTable;
  /** Where session i's messages start (session i's are `first[i]` up to `first[i + 1]`). */
  first: Uint32Array;
  textOffsets: U32s;
  text: Bytes;
  originalOffsets: U32s;
  originals: Bytes;
  words: WordLookup;
  original(message: number): Promise<{ role: Role; timestamp: Date; archived: boolean; content: string }>;
  close(): Promise<void>;
}

/** What a new index is made of. */
export interface IndexParts {
  sessions: IndexedSession[];
  text: Buffer;
  textOffsets: Uint32Array;
  originals: Buffer;
  originalOffsets: Uint32Array;
}

/** The parts with their word postings, as written. */
export type Complete = IndexParts & { words: WordIndex };

export type ReadIndex = { kind: 'ok'; index: LoadedIndex } | { kind: 'missing' } | { kind: 'damaged'; detail: string };

/** How a file is opened (a test counts the bytes a search reads). */
export type Opener = (path: string) => ReturnType<typeof open>;

/** Opens the index: reads and checks its table, block checksums and vocabulary; a truncated or garbled file is `damaged`. */
export async function readSearchIndex(path: string, opener: Opener = (p) => open(p, 'r')): Promise<ReadIndex> {
  let handle;
  try {
    handle = await opener(path);
  } catch (err) {
    if (errno(err) === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', detail: err instanceof Error ? err.message : String(err) };
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const size = Number(stats.size);
    const pre = Buffer.alloc(PREAMBLE);
    await handle.read(pre, 0, PREAMBLE, 0);
    if (pre.toString('latin1', 0, 8) !== MAGIC) throw new Damage('not a chatkeep search index');
    // An older build's file is no damage, only a cache of another shape: built anew, silently.
    if (pre.readUInt32LE(8) < VERSION) throw new Outdated();
    if (pre.readUInt32LE(8) !== VERSION) throw new Damage(`version ${pre.readUInt32LE(8)}, expected ${VERSION}`);
    const tableBytes = pre.readUInt32LE(12);
    if (PREAMBLE + tableBytes > size) throw new Damage('cut short');
    const tableBuffer = Buffer.alloc(tableBytes);
    await handle.read(tableBuffer, 0, tableBytes, PREAMBLE);
    if (crc32([tableBuffer]) !== pre.readUInt32LE(16)) throw new Damage('its checksum does not match (table of contents)');
    const table = parseTable(tableBuffer.toString('utf8'));
    const at = layoutOf(table, tableBytes);
    if (at.end !== size) throw new Damage(`${size} bytes, the header accounts for ${at.end}`);
    const eager = Buffer.allocUnsafe(at.lazyAt - at.crcs);
    const { bytesRead } = await handle.read(eager, 0, eager.length, at.crcs);
    if (bytesRead !== eager.length) throw new Damage('cut short');
    if (crc32([eager.subarray(0, at.vocabulary + table.vocabularyBytes - at.crcs)]) !== table.crc) throw new Damage('its checksum does not match (vocabulary)');
    // A small read may share Node's pool at an odd offset: then copied, so that the u32 views are aligned.
    const aligned = eager.byteOffset % 4 === 0 ? eager : Buffer.from(Uint8Array.from(eager).buffer);
    const view = (from: number, count: number): Uint32Array => new Uint32Array(aligned.buffer, aligned.byteOffset + from - at.crcs, count);
    const crcs = view(at.crcs, at.totalBlocks);
    const wordStarts = view(at.wordStarts, table.words + 1);
    const postingStarts = view(at.postingStarts, table.words + 1);
    checkOffsets(wordStarts, table.vocabularyBytes, 'vocabulary');
    checkOffsets(postingStarts, table.postings, 'postings');
    const sessions = decodeSessions(aligned.subarray(at.sessions - at.crcs, at.vocabulary - at.crcs), table.messages);
    const file = handle;
    // Text and postings blocks are kept for the next searches of the process (the session browser's); originals are read once each.
    const section = (name: Lazy): Bytes =>
      checkedBytes({ file, path, name, at: at.at[name], length: at.lengths[name], block: table.block, crcs: crcs.subarray(at.blocks[name].first, at.blocks[name].first + at.blocks[name].count), keep: name !== 'originals' });
    const originals = section('originals');
    const originalOffsets = u32sOn(section('originalOffsets'));
    return {
      kind: 'ok',
      index: {
        header: table,
        identity: identityOf(stats),
        sessions,
        first: sessions.first,
        textOffsets: u32sOn(section('textOffsets')),
        text: section('text'),
        originalOffsets,
        originals,
        words: { vocabulary: aligned.subarray(at.vocabulary - at.crcs, at.vocabulary - at.crcs + table.vocabularyBytes), wordStarts, postingStarts, postings: u32sOn(section('postings')) },
        original: async (message) => {
          const [offsets] = await originalOffsets.readMany([[message, message + 2]]);
          return parseRecord((await readOne(originals, offsets![0]!, offsets![1]!)).toString('utf8'));
        },
        close: () => file.close(),
      },
    };
  } catch (err) {
    await handle.close().catch(() => undefined);
    if (err instanceof Outdated) return { kind: 'missing' };
    if (err instanceof Damage || err instanceof TableDamage) return { kind: 'damaged', detail: err.message };
    throw err;
  }
}

/** A file's identity: device, inode, size and modification time (a rename keeps all four). */
export function identityOf(s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

class Damage extends Error {}
class Outdated extends Error {}

function parseTable(text: string): Table {
  let value: Partial<Table>;
  try {
    value = JSON.parse(text) as Partial<Table>;
  } catch {
    throw new Damage('its header is not JSON');
  }
  const counts = [value.sessions, value.messages, value.textBytes, value.originalBytes, value.words, value.postings, value.vocabularyBytes, value.crc];
  if (!counts.every((n) => Number.isInteger(n) && n! >= 0)) throw new Damage('its header is incomplete');
  if (!Number.isInteger(value.block) || value.block! <= 0 || value.block! % 4 !== 0 || !Number.isInteger(value.sessionBytes) || value.sessionBytes! % 4 !== 0) {
    throw new Damage('its header is incomplete');
  }
  return value as Table;
}

function checkOffsets(offsets: Uint32Array, end: number, what: string): void {
  let last = 0;
  for (let i = 0; i < offsets.length; i++) {
    const at = offsets[i]!;
    if (at < last) throw new Damage(`${what} offsets out of order`);
    last = at;
  }
  if (offsets[0] !== 0 || last !== end) throw new Damage(`${what} offsets do not span the ${what}`);
}

function parseRecord(record: string): { role: Role; timestamp: Date; archived: boolean; content: string } {
  const newline = record.indexOf('\n');
  const meta = JSON.parse(record.slice(0, newline)) as { r: Role; t: number; a: 0 | 1 };
  return { role: meta.r, timestamp: new Date(meta.t), archived: meta.a === 1, content: record.slice(newline + 1) };
}

/** A message's record in the originals section. */
export function originalRecord(m: { role: Role; timestamp: Date; archived: boolean; content: string }): Buffer {
  return Buffer.from(`${JSON.stringify({ r: m.role, t: m.timestamp.getTime(), a: m.archived ? 1 : 0 })}\n${m.content}`);
}

/**
 * Writes the index whole (temp file, rename) without fsync: after a power cut it is the old
 * one or damaged, and either is noticed (stale keys, failed checks) and rebuilt.
 */
export async function writeSearchIndex(path: string, parts: Complete): Promise<string> {
  const sessions = encodeSessions(parts.sessions, parts.textOffsets.length - 1);
  const header = headerOf(parts, sessions.length);
  const bytes = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const { words } = parts;
  const lazy: Record<Lazy, Buffer> = {
    textOffsets: bytes(parts.textOffsets), originalOffsets: bytes(parts.originalOffsets), postings: bytes(words.postings), text: parts.text, originals: parts.originals,
  };
  const sums: number[] = [];
  for (const name of LAZY) for (let at = 0; at < lazy[name].length; at += BLOCK) sums.push(crc32([lazy[name].subarray(at, at + BLOCK)]));
  const eager = [bytes(Uint32Array.from(sums)), bytes(words.wordStarts), bytes(words.postingStarts), sessions, words.vocabulary];
  const table = Buffer.from(JSON.stringify({ ...header, block: BLOCK, crc: crc32(eager) } satisfies Table));
  const pre = Buffer.alloc(PREAMBLE);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(VERSION, 8);
  pre.writeUInt32LE(table.length, 12);
  pre.writeUInt32LE(crc32([table]), 16);
  const at = layoutOf({ ...header, block: BLOCK }, table.length);
  const pad = (from: number): Buffer => Buffer.alloc(align(from) - from);
  const tmp = tempPath(path);
  const handle = await open(tmp, 'wx', FILE_MODE);
  try {
    const chunks = [pre, table, pad(PREAMBLE + table.length), ...eager, pad(at.vocabulary + header.vocabularyBytes), ...LAZY.map((name) => lazy[name])];
    const { bytesWritten } = await handle.writev(chunks);
    if (bytesWritten !== at.end) throw new Error(`short write to ${tmp}`);
    // Taken from the file written, not from the path after the rename: another process may replace it meanwhile.
    const identity = identityOf(await handle.stat({ bigint: true }));
    await handle.close();
    await rename(tmp, path);
    return identity;
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

function headerOf(parts: Complete, sessionBytes: number): IndexHeader {
  const { words } = parts;
  return {
    sessions: parts.sessions.length,
    sessionBytes,
    messages: parts.textOffsets.length - 1,
    textBytes: parts.text.length,
    originalBytes: parts.originals.length,
    words: words.wordStarts.length - 1,
    postings: words.postings.length,
    vocabularyBytes: words.vocabulary.length,
  };
}

/** The parts with their word postings made (from the text: word-index.ts). */
export function complete(parts: IndexParts): Complete {
  return { ...parts, words: buildWordIndex(parts.text, parts.textOffsets) };
}

/** The index just built, searched from memory (no need to read back what was written). */
export function inMemory(parts: Complete, identity?: string): LoadedIndex {
  const sessions = tableOf(parts.sessions, parts.textOffsets.length - 1);
  const header = headerOf(parts, 0);
  const { originals, originalOffsets } = parts;
  return {
    header,
    ...(identity !== undefined ? { identity } : {}),
    sessions,
    first: sessions.first,
    textOffsets: u32sOf(parts.textOffsets),
    text: bytesOf(parts.text),
    originalOffsets: u32sOf(originalOffsets),
    originals: bytesOf(originals),
    words: { ...parts.words, postings: u32sOf(parts.words.postings) },
    original: async (m) => parseRecord(originals.toString('utf8', originalOffsets[m], originalOffsets[m + 1])),
    close: async () => undefined,
  };
}
