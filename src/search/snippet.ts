/**
 * The snippet shown for a search result: a window of one message around a hit, on one line,
 * with where the hits are in it. Pure; works in grapheme clusters so that a cut never splits a
 * character (an emoji, a letter and its accent) and a hit maps back onto the text as written.
 */
import { fold } from './fold.js';
import type { Snippet } from '../session/api/search-data.js';

/** Messages longer than this are cut to the line holding the hit first. */
const WHOLE_MESSAGE_LIMIT = 20_000;
/** Of the room left beside the hit, the part shown before it. */
const CONTEXT_BEFORE = 1 / 3;
/** How far a blank is looked for to start or end the part segmented. */
const WORD_REACH = 40;

let segmenter: Intl.Segmenter | undefined;

/**
 * A window of `content` of at most `width` graphemes around the first hit of `folded` (a query
 * folded with {@link fold}). Without a hit (a match that folding only finds across the whole
 * message), the start of the message, nothing highlighted.
 */
export function makeSnippet(content: string, folded: string, width = 80): Snippet {
  const near = nearHit(content, folded, width);
  return (near && snippetOf(near, folded, width)) || snippetOf(start(content), folded, width, true)!;
}

/** A part of a message, and whether the message goes on before and after it. */
interface Part {
  text: string;
  before: boolean;
  after: boolean;
}

/** The start of a message (all of it, unless it is very long). */
function start(content: string): Part {
  return { text: content.slice(0, WHOLE_MESSAGE_LIMIT), before: false, after: content.length > WHOLE_MESSAGE_LIMIT };
}

/**
 * The part of the message near its first hit, cut at blanks (segmenting costs ~1 µs a
 * character: a snippet segments a few hundred, not the whole message). Where the hit is comes
 * from the folded text, whose positions may drift from the original's (`ß` → `ss`): the part
 * is wide enough to hold it anyway, and when it does not, the caller segments the whole.
 */
function nearHit(content: string, folded: string, width: number): Part | undefined {
  let text = content;
  let offset = 0;
  if (content.length > WHOLE_MESSAGE_LIMIT && !folded.includes('\n')) {
    // A long message: the line holding the hit.
    for (const line of content.split('\n')) {
      if (fold(line).includes(folded)) {
        text = line;
        break;
      }
      offset += line.length + 1;
    }
  }
  const guess = fold(text).indexOf(folded);
  if (guess < 0) return undefined;
  let start = Math.max(0, guess - 2 * width);
  let end = Math.min(text.length, guess + folded.length + 2 * width);
  start = blankNear(text, start, -1);
  end = blankNear(text, end, 1);
  return { text: text.slice(start, end), before: offset + start > 0, after: offset + end < content.length };
}

/** `at`, moved to the nearest blank within reach in `direction` (the ends of the text count). */
function blankNear(text: string, at: number, direction: 1 | -1): number {
  for (let i = 0; i <= WORD_REACH; i++) {
    const p = at + i * direction;
    if (p <= 0 || p >= text.length) return Math.max(0, Math.min(text.length, p));
    if (/\s/.test(text[p]!)) return p;
  }
  return at;
}

/** The snippet from `part`; undefined when it holds no hit (unless `always`: then its start). */
function snippetOf(part: Part, folded: string, width: number, always = false): Snippet | undefined {
  const { graphemes, foldedText, starts } = segmented(part.text);
  const hits = hitsIn(foldedText, folded, starts);
  const first = hits[0];
  if (!first && !always) return undefined;
  const room = Math.max(1, width - 2);
  let begin = 0;
  if (first) {
    const beside = Math.max(0, room - (first[1] - first[0]));
    begin = Math.max(0, first[0] - Math.floor(beside * CONTEXT_BEFORE));
  }
  const end = Math.min(graphemes.length, begin + room);
  begin = Math.max(0, Math.min(begin, end - room));
  return render(graphemes, begin, end, hits, part.after || end < graphemes.length, part.before || begin > 0);
}

/** The graphemes of `text`, its folded text, and where each grapheme starts in it (the last entry: its length). */
interface Parts {
  graphemes: string[];
  foldedText: string;
  starts: number[];
}

/** Runs of characters other than plain ones: ASCII but CR (CR LF is the one cluster of ASCII characters). */
const NOT_PLAIN = /[^\x00-\x0c\x0e-\x7f]+/g;

/**
 * Characters that are each a grapheme of their own beside any plain character or any other of
 * them: none extends, joins or prefixes a neighbour, or pairs with itself (accented Latin, Greek,
 * Cyrillic, kana, CJK ideographs, punctuation, arrows, mathematical and other symbols, emoji
 * without their skin tones).
 * test/unit/search/fold-and-snippet.test.ts checks each against Intl.Segmenter. A run of only
 * these needs no segmenter, whose every call costs a few µs before its first character: prose
 * of mixed scripts made ~10 calls a snippet, most of a snippet's time.
 */
export const LONE_GRAPHEMES =
  /^[\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u052f\u1e00-\u1eff\u2010-\u2027\u2030-\u205f\u2190-\u23ff\u2500-\u27bf\u3041-\u3096\u30a0-\u30ff\u4e00-\u9fff\u{1f300}-\u{1f3fa}\u{1f400}-\u{1f64f}\u{1f680}-\u{1f6ff}]+$/u;

/**
 * Segmenting and folding grapheme by grapheme cost ~1 µs a character: most of a search's time
 * at 100 results. Only the runs of other characters are segmented, each with the plain character
 * on either side of it (a cluster may start with one: `e` and a combining accent); plain
 * characters are graphemes of their own and fold to one character. Between two plain characters
 * there is always a break, and no rule looks back past one, so the graphemes are the same as
 * the whole text segmented.
 */
function segmented(text: string): Parts {
  // The windows segmented: each run of other characters with a plain character on either side, overlapping ones merged;
  // a window of LONE_GRAPHEMES runs only is cut into its characters.
  const windows: [number, number, boolean][] = [];
  for (const run of text.matchAll(NOT_PLAIN)) {
    const from = Math.max(0, run.index - 1);
    const to = Math.min(text.length, run.index + run[0].length + 1);
    const lone = LONE_GRAPHEMES.test(run[0]);
    const last = windows.at(-1);
    if (last && from < last[1]) {
      last[1] = to;
      last[2] &&= lone;
    } else windows.push([from, to, lone]);
  }
  const graphemes: string[] = [];
  const starts: number[] = [];
  let foldedText = '';
  const plain = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      graphemes.push(text[i]!);
      starts.push(foldedText.length + i - from);
    }
    foldedText += fold(text.slice(from, to));
  };
  let at = 0;
  for (const [from, to, lone] of windows) {
    plain(at, from);
    // Where each grapheme starts in the folded text (folding may change lengths: `ß` → `ss`).
    for (const g of lone ? text.slice(from, to) : segment(text.slice(from, to))) {
      graphemes.push(g);
      starts.push(foldedText.length);
      foldedText += fold(g);
    }
    at = to;
  }
  plain(at, text.length);
  starts.push(foldedText.length);
  return { graphemes, foldedText, starts };
}

function segment(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
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
