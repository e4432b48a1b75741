/**
 * The snippet shown for a search result: a window of one message around a hit, on one line,
 * with where the hits are in it. Pure; works in grapheme clusters so that a cut never splits a
 * character (an emoji, a letter and its accent) and a hit maps back onto the text as written.
 */
import { fold } from './fold.js';

export interface Snippet {
  /** One line: whitespace runs shown as one space; `…` where the message goes on. */
  text: string;
  /** `[start, end)` UTF-16 offsets into `text` of each hit shown. */
  highlights: [number, number][];
}

/** Messages longer than this are cut to the line holding the hit before segmenting (segmenting costs ~1 µs a character). */
const WHOLE_MESSAGE_LIMIT = 20_000;
/** Of the room left beside the hit, the part shown before it. */
const CONTEXT_BEFORE = 1 / 3;

let segmenter: Intl.Segmenter | undefined;

/**
 * A window of `content` of at most `width` graphemes around the first hit of `folded` (a query
 * folded with {@link fold}). Without a hit (a match that folding only finds across the whole
 * message), the start of the message, nothing highlighted.
 */
export function makeSnippet(content: string, folded: string, width = 80): Snippet {
  const region = regionOf(content, folded);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const graphemes = Array.from(segmenter.segment(region), (s) => s.segment);
  // Where each grapheme starts in the folded text (folding may change lengths: `ß` → `ss`).
  const starts: number[] = [];
  let foldedText = '';
  for (const g of graphemes) {
    starts.push(foldedText.length);
    foldedText += fold(g);
  }
  starts.push(foldedText.length);
  const hits = hitsIn(foldedText, folded, starts);
  const first = hits[0];
  const room = Math.max(1, width - 2);
  let begin = 0;
  if (first) {
    const around = Math.max(0, room - (first[1] - first[0]));
    begin = Math.max(0, first[0] - Math.floor(around * CONTEXT_BEFORE));
  }
  const end = Math.min(graphemes.length, begin + room);
  begin = Math.max(0, Math.min(begin, end - room));
  return render(graphemes, begin, end, hits, region.length < content.length || end < graphemes.length, begin > 0 || region !== content.slice(0, region.length));
}

/** The whole message, or for a long one the line that holds the hit. */
function regionOf(content: string, folded: string): string {
  if (content.length <= WHOLE_MESSAGE_LIMIT || folded.includes('\n')) return content;
  for (const line of content.split('\n')) if (fold(line).includes(folded)) return line.length <= WHOLE_MESSAGE_LIMIT * 5 ? line : line.slice(0, WHOLE_MESSAGE_LIMIT);
  return content.slice(0, WHOLE_MESSAGE_LIMIT);
}

/** Non-overlapping hits as grapheme ranges `[first, end)`. */
function hitsIn(foldedText: string, folded: string, starts: number[]): [number, number][] {
  const hits: [number, number][] = [];
  if (folded === '') return hits;
  let g = 0;
  for (let at = foldedText.indexOf(folded); at !== -1; at = foldedText.indexOf(folded, at + folded.length)) {
    while (starts[g + 1]! <= at) g++;
    let e = g + 1;
    while (starts[e]! < at + folded.length) e++;
    hits.push([g, e]);
  }
  return hits;
}

function render(graphemes: string[], begin: number, end: number, hits: [number, number][], cutAfter: boolean, cutBefore: boolean): Snippet {
  const prefix = cutBefore ? '…' : '';
  let text = prefix;
  // Output offset of each grapheme in the window (whitespace runs collapse to one space).
  const at: number[] = [];
  for (let i = begin; i < end; i++) {
    at.push(text.length);
    const g = graphemes[i]!;
    if (/^\s+$/.test(g)) {
      if (text.length > prefix.length && !text.endsWith(' ')) text += ' ';
    } else text += g;
  }
  at.push(text.length);
  const highlights: [number, number][] = [];
  for (const [a, b] of hits) {
    if (b <= begin || a >= end) continue;
    const start = at[Math.max(a, begin) - begin]!;
    const stop = at[Math.min(b, end) - begin]!;
    if (stop > start) highlights.push([start, stop]);
  }
  const body = text.trimEnd();
  return { text: cutAfter ? `${body}…` : body, highlights: highlights.map(([a, b]) => [a, Math.min(b, body.length)]) };
}
