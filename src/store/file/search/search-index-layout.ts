/**
 * Where everything is in a search index file (search-index-file.ts), from the counts its table of
 * contents records: nothing about the layout is stored that could disagree with the counts.
 *
 *   "CKSEARCH" · u32 version · u32 table length · u32 CRC-32 of the table · table (JSON) · pad to 4
 *   read whole at open, checked by the CRC-32 the table holds (sized by the sessions and the words, not the text):
 *     u32 × blocks          the CRC-32 of each block of the sections below, section after section
 *     u32 × (words + 1)     where each word starts in the vocabulary (word-index.ts)
 *     u32 × (words + 1)     where each word's postings start
 *     session table         each session's ID, key, folded title and first message (session-table.ts)
 *     vocabulary            every word of the text, each followed by NUL · pad to 4
 *   read by checked block (search-index-blocks.ts), only where a search needs them:
 *     u32 × (messages + 1)  where each message's folded text starts in the text section
 *     u32 × (messages + 1)  where each message's record starts in the originals section
 *     u32 × postings        each word's messages, ascending
 *     text section          every message folded (src/search/fold.ts), each followed by NUL
 *     originals section     per message `{"r":role,"t":epoch ms,"a":0|1}\n` + its content as written
 */
export const MAGIC = 'CKSEARCH';
/** 3: the sessions in binary, the sections read by checked block; 2: read whole, one CRC-32 (a version-2 file is rebuilt). */
export const VERSION = 3;
export const PREAMBLE = 20;
/** Bytes per checked block: a search reads a block for each place it looks. */
export const BLOCK = 8192;

/** The counts a file's layout follows from. */
export interface IndexHeader {
  sessions: number;
  /** Length of the session table (a multiple of 4). */
  sessionBytes: number;
  messages: number;
  textBytes: number;
  originalBytes: number;
  words: number;
  postings: number;
  vocabularyBytes: number;
}

/** The table of contents: the header, the block size and the CRC-32 of the part read whole. */
export interface Table extends IndexHeader {
  block: number;
  crc: number;
}

export const LAZY = ['textOffsets', 'originalOffsets', 'postings', 'text', 'originals'] as const;
export type Lazy = (typeof LAZY)[number];

export function align(n: number): number {
  return (n + 3) & ~3;
}

export function lazyLengths(h: IndexHeader): Record<Lazy, number> {
  const offsets = 4 * (h.messages + 1);
  return { textOffsets: offsets, originalOffsets: offsets, postings: 4 * h.postings, text: h.textBytes, originals: h.originalBytes };
}

/** Where each part is, in the file, for a table of `tableBytes` bytes. */
export function layoutOf(t: IndexHeader & { block: number }, tableBytes: number) {
  const lengths = lazyLengths(t);
  const blocks = {} as Record<Lazy, { first: number; count: number }>;
  let total = 0;
  for (const name of LAZY) {
    const count = Math.ceil(lengths[name] / t.block);
    blocks[name] = { first: total, count };
    total += count;
  }
  const crcs = align(PREAMBLE + tableBytes);
  const wordStarts = crcs + 4 * total;
  const postingStarts = wordStarts + 4 * (t.words + 1);
  const sessions = postingStarts + 4 * (t.words + 1);
  const vocabulary = sessions + t.sessionBytes;
  const lazyAt = align(vocabulary + t.vocabularyBytes);
  const at = {} as Record<Lazy, number>;
  let end = lazyAt;
  for (const name of LAZY) {
    at[name] = end;
    end += lengths[name];
  }
  return { blocks, totalBlocks: total, crcs, wordStarts, postingStarts, sessions, vocabulary, lazyAt, at, lengths, end };
}
