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

export function scanIndex(index: LoadedIndex, folded: string, needle: Buffer): IndexHits {
  const sessions = index.first.length - 1;
  // Per session: total hits, the message with the most (the latest of equals; -1: none), its hits.
  const total = new Uint32Array(sessions);
  const best = new Int32Array(sessions).fill(-1);
  const bestHits = new Uint32Array(sessions);
  const of = (position: number): MessageHits =>
    best[position]! < 0 ? { hits: 0 } : { hits: total[position]!, best: { message: best[position]!, hits: bestHits[position]! } };
  if (needle.length === 0) return { of, sessions: new Uint32Array(0) };
  const hitSessions = new Grow();
  const { text, textOffsets, first } = index;
  const last = lastHits.get(index);
  const hit = new Grow();
  const named = candidates(index, needle);
  const narrowed = last && folded.includes(last.folded) ? last.messages : undefined;
  const only = named && narrowed ? (named.length <= narrowed.length ? named : narrowed) : (named ?? narrowed);
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
  const scanRun = (a: number, b: number): void => {
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
  };
  if (only) {
    // Runs of consecutive messages, scanned as one part each.
    const m = only;
    for (let i = 0; i < m.length; ) {
      let j = i + 1;
      while (j < m.length && m[j] === m[j - 1]! + 1) j++;
      scanRun(m[i]!, m[j - 1]! + 1);
      i = j;
    }
  } else scanRun(0, textOffsets.length - 1);
  flush();
  lastHits.set(index, { folded, messages: hit.view().slice() });
  return { of, sessions: hitSessions.view() };
}
