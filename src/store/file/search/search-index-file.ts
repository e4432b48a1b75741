/**
 * `projects/<slug>/search.idx`: the file store's full-text index of one project (a cache: it
 * can always be rebuilt from the sessions). One file, so that it is replaced whole:
 *
 *   "CKSEARCH" · u32 version · u32 header length · u32 CRC-32 · header JSON · padding to 4 bytes
 *   u32 × (messages + 1)  where each message's folded text starts in the text section
 *   u32 × (messages + 1)  where each message's record starts in the originals section
 *   u32 × (words + 1)     where each word starts in the vocabulary (word-index.ts)
 *   u32 × (words + 1)     where each word's postings start
 *   u32 × postings        each word's messages, ascending
 *   vocabulary            every word of the text, each followed by NUL
 *   text section          every message folded (src/search/fold.ts), each followed by NUL
 *   originals section     per message `{"r":role,"t":epoch ms,"a":0|1}\n` + its content as written
 *
 * A search reads everything up to the originals (one read), checks it against the CRC-32 (the
 * header and every section but the originals: a torn or garbled file is rebuilt, never trusted),
 * looks its query's words up in the postings, scans only the messages they name, and reads only
 * the originals of the messages it shows. Integers are in the host's byte order: a file moved to
 * a host of the other order fails the checks and is rebuilt.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { FILE_MODE, tempPath } from '../atomic-write.js';
import { errno } from '../../../util/errno.js';
import type { Role } from '../../../session/api/data.js';
import { crc32 } from './checksum.js';
import { buildWordIndex, type WordIndex } from './word-index.js';

const MAGIC = 'CKSEARCH';
/** 2: the word postings and the CRC-32 (a version-1 file is rebuilt). */
const VERSION = 2;
const PREAMBLE = 20;

/** One session in the index: its ID, the listing facts it was indexed from, its folded title, and where its messages start. */
export interface IndexedSession {
  id: string;
  key: string;
  title: string;
  first: number;
}

export interface IndexHeader {
  sessions: IndexedSession[];
  messages: number;
  textBytes: number;
  originalBytes: number;
  words: number;
  postings: number;
  vocabularyBytes: number;
}

/** An index in memory: everything a scan needs, plus a way to read a message as written. */
export interface LoadedIndex {
  header: IndexHeader;
  /** The file it was read from or written to (device, inode, size, mtime), when there is one: what `search.sync.json` names. */
  identity?: string;
  /** Where session i's messages start (session i's are `first[i]` up to `first[i + 1]`). */
  first: Uint32Array;
  textOffsets: Uint32Array;
  text: Buffer;
  originalOffsets: Uint32Array;
  words: WordIndex;
  original(message: number): Promise<{ role: Role; timestamp: Date; archived: boolean; content: string }>;
  /** The whole originals section, for copying into a new index. */
  originals(): Promise<Buffer>;
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

/** Reads the index (not the originals); checks every offset, so a truncated or garbled file is `damaged`. */
export async function readSearchIndex(path: string): Promise<ReadIndex> {
  let handle;
  try {
    handle = await open(path, 'r');
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
    const headerBytes = pre.readUInt32LE(12);
    if (PREAMBLE + headerBytes > size) throw new Damage('cut short');
    const headerBuffer = Buffer.alloc(headerBytes);
    await handle.read(headerBuffer, 0, headerBytes, PREAMBLE);
    const header = parseHeader(headerBuffer.toString('utf8'));
    const offsetsAt = align(PREAMBLE + headerBytes);
    const sections = sectionsOf(header);
    const originalsAt = offsetsAt + sections.end;
    if (originalsAt + header.originalBytes !== size) throw new Damage(`${size} bytes, the header accounts for ${originalsAt + header.originalBytes}`);
    // Everything but the originals in one read: a search needs all of it.
    const body = Buffer.allocUnsafe(sections.end);
    const { bytesRead } = await handle.read(body, 0, body.length, offsetsAt);
    if (bytesRead !== body.length) throw new Damage('cut short');
    if (crc32([headerBuffer, body]) !== pre.readUInt32LE(16)) throw new Damage('its checksum does not match');
    // Views on the body where it is aligned (a large read has a buffer of its own), else copies.
    const u32 = (at: number, count: number): Uint32Array =>
      body.byteOffset % 4 === 0
        ? new Uint32Array(body.buffer, body.byteOffset + at, count)
        : new Uint32Array(body.buffer.slice(body.byteOffset + at, body.byteOffset + at + 4 * count));
    const textOffsets = u32(0, header.messages + 1);
    const originalOffsets = u32(sections.originalOffsets, header.messages + 1);
    const words: WordIndex = {
      wordStarts: u32(sections.wordStarts, header.words + 1),
      postingStarts: u32(sections.postingStarts, header.words + 1),
      postings: u32(sections.postings, header.postings),
      vocabulary: body.subarray(sections.vocabulary, sections.text),
    };
    checkOffsets(textOffsets, header.textBytes, 'text');
    checkOffsets(originalOffsets, header.originalBytes, 'originals');
    checkOffsets(words.wordStarts, header.vocabularyBytes, 'vocabulary');
    checkOffsets(words.postingStarts, header.postings, 'postings');
    const first = firstMessages(header);
    const file = handle;
    return {
      kind: 'ok',
      index: {
        header,
        identity: identityOf(stats),
        first,
        textOffsets,
        text: body.subarray(sections.text),
        originalOffsets,
        words,
        async original(message) {
          const start = originalOffsets[message]!;
          const record = Buffer.allocUnsafe(originalOffsets[message + 1]! - start);
          await file.read(record, 0, record.length, originalsAt + start);
          return parseRecord(record.toString('utf8'));
        },
        async originals() {
          const all = Buffer.allocUnsafe(header.originalBytes);
          await file.read(all, 0, all.length, originalsAt);
          return all;
        },
        close: () => file.close(),
      },
    };
  } catch (err) {
    await handle.close().catch(() => undefined);
    if (err instanceof Outdated) return { kind: 'missing' };
    if (err instanceof Damage) return { kind: 'damaged', detail: err.message };
    throw err;
  }
}

/** A file's identity: device, inode, size and modification time (a rename keeps all four). */
export function identityOf(s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

class Damage extends Error {}
class Outdated extends Error {}

function align(n: number): number {
  return (n + 3) & ~3;
}

/** Where each section starts, from the start of the text offsets. */
function sectionsOf(h: IndexHeader) {
  const offsetBytes = 4 * (h.messages + 1);
  const wordBytes = 4 * (h.words + 1);
  const originalOffsets = offsetBytes;
  const wordStarts = originalOffsets + offsetBytes;
  const postingStarts = wordStarts + wordBytes;
  const postings = postingStarts + wordBytes;
  const vocabulary = postings + 4 * h.postings;
  const text = vocabulary + h.vocabularyBytes;
  return { originalOffsets, wordStarts, postingStarts, postings, vocabulary, text, end: text + h.textBytes };
}

function parseHeader(text: string): IndexHeader {
  let value: Partial<IndexHeader>;
  try {
    value = JSON.parse(text) as Partial<IndexHeader>;
  } catch {
    throw new Damage('its header is not JSON');
  }
  const counts = [value.messages, value.textBytes, value.originalBytes, value.words, value.postings, value.vocabularyBytes];
  if (!Array.isArray(value.sessions) || !counts.every((n) => Number.isInteger(n) && n! >= 0)) throw new Damage('its header is incomplete');
  return value as IndexHeader;
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

/** Where each session's messages start, plus the end; checks they follow each other. */
function firstMessages(header: IndexHeader): Uint32Array {
  const first = new Uint32Array(header.sessions.length + 1);
  let last = 0;
  header.sessions.forEach((s, i) => {
    if (typeof s?.id !== 'string' || typeof s.key !== 'string' || typeof s.title !== 'string' || !Number.isInteger(s.first) || s.first < last) {
      throw new Damage(`session ${i} of the header is garbled`);
    }
    first[i] = last = s.first;
  });
  if (last > header.messages) throw new Damage('sessions beyond the messages');
  first[header.sessions.length] = header.messages;
  return first;
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
  const header = headerOf(parts);
  const headerBuffer = Buffer.from(JSON.stringify(header));
  const bytes = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const { words } = parts;
  const body = [
    bytes(parts.textOffsets), bytes(parts.originalOffsets), bytes(words.wordStarts), bytes(words.postingStarts), bytes(words.postings),
    words.vocabulary, parts.text,
  ];
  const pre = Buffer.alloc(PREAMBLE);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(VERSION, 8);
  pre.writeUInt32LE(headerBuffer.length, 12);
  pre.writeUInt32LE(crc32([headerBuffer, ...body]), 16);
  const pad = Buffer.alloc(align(PREAMBLE + headerBuffer.length) - PREAMBLE - headerBuffer.length);
  const tmp = tempPath(path);
  const handle = await open(tmp, 'wx', FILE_MODE);
  try {
    const chunks = [pre, headerBuffer, pad, ...body, parts.originals];
    const { bytesWritten } = await handle.writev(chunks);
    if (bytesWritten !== chunks.reduce((n, c) => n + c.length, 0)) throw new Error(`short write to ${tmp}`);
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

function headerOf(parts: Complete): IndexHeader {
  const { words } = parts;
  return {
    sessions: parts.sessions,
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
  const header = headerOf(parts);
  const { originals, originalOffsets } = parts;
  return {
    header,
    ...(identity !== undefined ? { identity } : {}),
    first: firstMessages(header),
    textOffsets: parts.textOffsets,
    text: parts.text,
    originalOffsets,
    words: parts.words,
    original: async (m) => parseRecord(originals.toString('utf8', originalOffsets[m], originalOffsets[m + 1])),
    originals: async () => originals,
    close: async () => undefined,
  };
}
