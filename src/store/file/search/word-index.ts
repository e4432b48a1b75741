/**
 * The word postings of a search index file (file store, docs/design.md §18): each word of the
 * folded text (a run of word bytes, below) and the messages that hold it, so that a query reads
 * only its words' postings and then confirms on those messages' text: the answers are the scan's.
 *
 * Why it is exact. A word byte is an ASCII letter or digit or any byte of a non-ASCII character;
 * every other byte separates words. Where a query occurs in a message, each run of word bytes of
 * the query lies inside one word of the message, so that word holds the run as a substring. The
 * candidates are therefore the messages holding, for every run of the query, some indexed word
 * that contains it (found by `indexOf` over the vocabulary): a superset of the messages that hold
 * the query, which the scan then confirms. A query with no word byte (`--`) is not narrowed.
 *
 * Made from the text section whenever a file is written (the recent file's from its own few
 * sessions), so postings can never speak of text other than the file's.
 */
import type { LoadedIndex } from './search-index-file.js';

/** The words of one index file and the messages (ascending) of each. */
export interface WordIndex {
  /** Every word followed by NUL. */
  vocabulary: Buffer;
  /** Where word i starts in the vocabulary (words + 1 entries; the last is its length). */
  wordStarts: Uint32Array;
  /** Where word i's postings start (words + 1 entries). */
  postingStarts: Uint32Array;
  /** Message numbers, each word's ascending. */
  postings: Uint32Array;
}

/** Whether a byte of folded UTF-8 text belongs to a word. */
function isWordByte(b: number): boolean {
  return b >= 0x80 || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a);
}

/** The word postings of `text` (messages split at `textOffsets`). */
export function buildWordIndex(text: Buffer, textOffsets: Uint32Array): WordIndex {
  const messages = textOffsets.length - 1;
  const ids = new Map<string, number>();
  const words: string[] = [];
  const counts = new Grow();
  const lastMessage = new Grow();
  // Each message's distinct words, as word numbers, one message after another.
  const stream = new Grow();
  const messageEnds = new Uint32Array(messages + 1);
  for (let m = 0; m < messages; m++) {
    const end = textOffsets[m + 1]!;
    let at = textOffsets[m]!;
    while (at < end) {
      while (at < end && !isWordByte(text[at]!)) at++;
      const start = at;
      while (at < end && isWordByte(text[at]!)) at++;
      if (at === start) continue;
      // latin1: one character per byte, the cheapest string to key a map with.
      const word = text.toString('latin1', start, at);
      let id = ids.get(word);
      if (id === undefined) {
        id = words.length;
        ids.set(word, id);
        words.push(word);
        counts.push(0);
        lastMessage.push(0xffffffff);
      }
      if (lastMessage.at(id) !== m) {
        lastMessage.set(id, m);
        counts.set(id, counts.at(id) + 1);
        stream.push(id);
      }
    }
    messageEnds[m + 1] = stream.length;
  }
  const postingStarts = new Uint32Array(words.length + 1);
  for (let i = 0; i < words.length; i++) postingStarts[i + 1] = postingStarts[i]! + counts.at(i);
  const cursor = postingStarts.slice(0, words.length);
  const postings = new Uint32Array(postingStarts[words.length]!);
  const ordered = stream.view();
  for (let m = 0; m < messages; m++) {
    for (let k = messageEnds[m]!; k < messageEnds[m + 1]!; k++) postings[cursor[ordered[k]!]!++] = m;
  }
  const vocabulary = Buffer.from(words.length ? `${words.join('\0')}\0` : '', 'latin1');
  const wordStarts = new Uint32Array(words.length + 1);
  for (let i = 0; i < words.length; i++) wordStarts[i + 1] = wordStarts[i]! + words[i]!.length + 1;
  return { vocabulary, wordStarts, postingStarts, postings };
}

/**
 * The messages that may hold `needle` (ascending), or undefined when the postings would not
 * narrow the scan (no word in the query, or each of its runs in most messages). Reads only the
 * postings of the words that match (by range, from a file).
 */
export async function candidates(index: Pick<LoadedIndex, 'words' | 'header'>, needle: Buffer): Promise<Uint32Array | undefined> {
  const { vocabulary, wordStarts, postingStarts, postings } = index.words;
  const messages = index.header.messages;
  const runs = wordRuns(needle);
  // A run whose words' postings add up to more than the messages narrows little: the scan is as cheap.
  const matched: number[][] = [];
  for (const run of runs) {
    const found: number[] = [];
    let total = 0;
    for (let at = vocabulary.indexOf(run); at !== -1; ) {
      const word = lastAtOrBelow(wordStarts, at);
      found.push(word);
      total += postingStarts[word + 1]! - postingStarts[word]!;
      at = vocabulary.indexOf(run, wordStarts[word + 1]!);
    }
    if (found.length === 0) return new Uint32Array(0);
    if (total <= messages) matched.push(found);
  }
  if (matched.length === 0) return undefined;
  // Marks: a message is a candidate once every run has marked it (runs past 255 are left to the scan).
  const used = matched.slice(0, 255);
  const lists = await Promise.all(used.map((found) => postings.readMany(found.map((word) => [postingStarts[word]!, postingStarts[word + 1]!] as const))));
  let named = 0;
  for (const ofWords of lists) for (const list of ofWords) named += list.length;
  // Few postings: merged and intersected as lists, so that the cost follows them, not the messages (a mark per message is 2 MB at 100,000 sessions).
  if (named * FEW_POSTINGS <= messages) return intersect(lists.map(union));
  const marks = new Uint8Array(messages);
  lists.forEach((ofWords, r) => {
    for (const list of ofWords) {
      for (const m of list) {
        if (marks[m] === r) marks[m] = r + 1;
      }
    }
  });
  const out = new Grow();
  for (let m = 0; m < messages; m++) if (marks[m] === used.length) out.push(m);
  return out.view().slice();
}

/** Postings this many times fewer than the messages are merged as lists (below), not marked per message. */
const FEW_POSTINGS = 8;

/** The messages in any of these ascending lists, ascending, each once. */
function union(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  let length = 0;
  for (const list of lists) length += list.length;
  const all = new Uint32Array(length);
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.subarray(0, kept);
}

/** The messages in every one of these ascending lists, ascending. */
function intersect(lists: readonly Uint32Array[]): Uint32Array {
  let out = lists.reduce((a, b) => (b.length < a.length ? b : a));
  for (const list of lists) {
    if (list === out) continue;
    const kept = new Grow();
    let j = 0;
    for (const m of out) {
      while (j < list.length && list[j]! < m) j++;
      if (j < list.length && list[j] === m) kept.push(m);
    }
    out = kept.view();
  }
  return out.slice();
}

/** The distinct runs of word bytes in a folded query. */
function wordRuns(needle: Buffer): Buffer[] {
  const runs = new Map<string, Buffer>();
  for (let at = 0; at < needle.length; ) {
    while (at < needle.length && !isWordByte(needle[at]!)) at++;
    const start = at;
    while (at < needle.length && isWordByte(needle[at]!)) at++;
    if (at > start) runs.set(needle.toString('latin1', start, at), needle.subarray(start, at));
  }
  return [...runs.values()];
}

/** The last position whose value is ≤ `value` in an ascending array. */
export function lastAtOrBelow(values: Uint32Array, value: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (values[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A growing array of u32. */
export class Grow {
  private values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Uint32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  at(i: number): number {
    return this.values[i]!;
  }

  set(i: number, value: number): void {
    this.values[i] = value;
  }

  /** The values so far (a view: copy it to keep it past more pushes). */
  view(): Uint32Array {
    return this.values.subarray(0, this.length);
  }
}
