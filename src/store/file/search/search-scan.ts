/**
 * Counting a query's hits in one search index file (file store): `Buffer.indexOf` over the folded
 * text of every message, or only of the messages that held the last query searched in this
 * index when this query holds that one (typed on from it, in the session browser: each
 * keystroke then costs the last one's hits, not the whole text). Messages end in NUL, which no
 * folded query holds, so a hit never spans two messages.
 */
import type { MessageHits } from '../../../search/rank.js';
import type { LoadedIndex } from './search-index-file.js';

/** Hits per session of an index (by position in the file). */
export interface IndexHits {
  of(position: number): MessageHits;
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
  if (needle.length === 0) return { of };
  const { text, textOffsets, first } = index;
  const last = lastHits.get(index);
  const hit = new Grow();
  let message = -1;
  let count = 0;
  const flush = (): void => {
    if (message < 0) return;
    hit.push(message);
    const session = lastAtOrBelow(first, message);
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
  if (last && folded.includes(last.folded)) {
    // Runs of consecutive messages, scanned as one part each.
    const m = last.messages;
    for (let i = 0; i < m.length; ) {
      let j = i + 1;
      while (j < m.length && m[j] === m[j - 1]! + 1) j++;
      scanRun(m[i]!, m[j - 1]! + 1);
      i = j;
    }
  } else scanRun(0, textOffsets.length - 1);
  flush();
  lastHits.set(index, { folded, messages: hit.done() });
  return { of };
}

/** A growing list of message numbers. */
class Grow {
  private values = new Uint32Array(1024);
  private length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Uint32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  done(): Uint32Array {
    return this.values.slice(0, this.length);
  }
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
