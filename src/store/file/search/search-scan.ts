/**
 * Counting a query's hits in one search index file (file store): `Buffer.indexOf` over the folded
 * text of only the messages that may hold it: those its words' postings name (word-index.ts), or
 * those that held the last query searched in this index when this query holds that one (typed on
 * from it, in the session browser), whichever are fewer; the whole text only for a query the
 * postings cannot narrow. A query then costs its hits, not the whole text. Messages end in NUL,
 * which no folded query holds, so a hit never spans two messages.
 */
import type { MessageHits } from '../../../search/rank.js';
import type { LoadedIndex } from './search-index-file.js';
import { candidates, Grow, lastAtOrBelow } from './word-index.js';

/** Hits per session of an index (by position in the file). */
export interface IndexHits {
  of(position: number): MessageHits;
  /** The sessions (by position) with at least one hit, in no order. */
  sessions: Uint32Array;
}

/**
 * The messages that held the last query searched in an index (ascending). Kept per index object,
 * which stands for exactly the bytes it was read from: a changed file is another object.
 */
const lastHits = new WeakMap<LoadedIndex, { folded: string; messages: Uint32Array }>();

export async function scanIndex(index: LoadedIndex, folded: string, needle: Buffer): Promise<IndexHits> {
  const sessions = index.first.length - 1;
  // Per session: total hits, the message with the most (the latest of equals; -1: none), its hits.
  const total = new Uint32Array(sessions);
  const best = new Int32Array(sessions).fill(-1);
  const bestHits = new Uint32Array(sessions);
  const of = (position: number): MessageHits =>
    best[position]! < 0 ? { hits: 0 } : { hits: total[position]!, best: { message: best[position]!, hits: bestHits[position]! } };
  if (needle.length === 0) return { of, sessions: new Uint32Array(0) };
  const hitSessions = new Grow();
  const { first } = index;
  const last = lastHits.get(index);
  const hit = new Grow();
  const named = await candidates(index, needle);
  const narrowed = last && folded.includes(last.folded) ? last.messages : undefined;
  const only = named && narrowed ? (named.length <= narrowed.length ? named : narrowed) : (named ?? narrowed);
  // Runs of consecutive messages, each read and scanned as one part: all of them, or those named.
  const runs: [number, number][] = [];
  // Candidates in a good share of the messages: one scan of all the text (the same answers: a
  // candidate is only ever confirmed on its text) costs less than reading thousands of runs.
  if (!only || only.length > index.header.messages / 4) runs.push([0, index.header.messages]);
  else {
    for (let i = 0; i < only.length; ) {
      let j = i + 1;
      while (j < only.length && only[j] === only[j - 1]! + 1) j++;
      runs.push([only[i]!, only[j - 1]! + 1]);
      i = j;
    }
  }
  const offsets = await index.textOffsets.readMany(runs.map(([a, b]) => [a, b + 1] as const));
  const parts = await index.text.readMany(offsets.map((o) => [o[0]!, o[o.length - 1]!] as const));
  let message = -1;
  let count = 0;
  const flush = (): void => {
    if (message < 0) return;
    hit.push(message);
    const session = lastAtOrBelow(first, message);
    if (total[session] === 0) hitSessions.push(session);
    total[session] += count;
    if (count >= bestHits[session]!) {
      best[session] = message - first[session]!;
      bestHits[session] = count;
    }
  };
  runs.forEach(([a], r) => {
    // Offsets of messages a… (and the end of the last), the part their text.
    const starts = offsets[r]!;
    const part = parts[r]!;
    const base = starts[0]!;
    let end = -1;
    for (let at = part.indexOf(needle); at !== -1; at = part.indexOf(needle, at + needle.length)) {
      if (base + at >= end) {
        flush();
        const local = lastAtOrBelow(starts, base + at);
        message = a + local;
        end = starts[local + 1]!;
        count = 0;
      }
      count++;
    }
  });
  flush();
  lastHits.set(index, { folded, messages: hit.view().slice() });
  return { of, sessions: hitSessions.view() };
}
