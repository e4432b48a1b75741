/**
 * How many columns the wrapper (wrap.ts) gives text: printable ASCII by its length, the rest by
 * string-width once something has loaded it, and before that (the banner, `--help`: start-up
 * does not load it, docs/design.md §21) by an estimate that errs wide.
 */
import { loadedWidths } from './table.js';

/** Stands for a space that is no place to break (inside a kept tail); never in the output. */
export const KEEP = '\uE000';
const PLAIN = /^[\x20-\x7e]*$/;

/** Columns `text` (no whitespace, no escapes) takes. */
export function measure(text: string): number {
  if (PLAIN.test(text)) return text.length;
  if (text.includes(KEEP)) return measure(text.replaceAll(KEEP, ' '));
  const widths = loadedWidths();
  if (widths) return widths.displayWidth(text);
  let total = 0;
  for (const c of text) total += estimate(c.codePointAt(0)!);
  return total;
}

/** Each grapheme of `text` with its columns (code points with the estimate until string-width is loaded). */
export function* graphemes(text: string): Generator<[string, number]> {
  if (PLAIN.test(text.replaceAll(KEEP, ' '))) {
    for (const c of text) yield [c, 1];
  } else if (loadedWidths()) {
    yield* loadedWidths()!.graphemeWidths(text);
  } else {
    for (const c of text) yield [c, estimate(c.codePointAt(0)!)];
  }
}

/**
 * A character's columns without string-width: none for controls, combining marks and invisible
 * formatting; one for the scripts and symbols of the banner, help and notices (Latin, Greek,
 * Cyrillic, punctuation, arrows, box drawing); two for anything else, so that a guess errs
 * towards breaking early, never towards running off the row.
 */
function estimate(code: number): number {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if ((code >= 0x300 && code < 0x370) || (code >= 0x200b && code < 0x2010) || (code >= 0x2028 && code < 0x202f) || (code >= 0x2060 && code < 0x2070) || (code >= 0xfe00 && code < 0xfe10)) return 0;
  if (code < 0x1100) return 1;
  if ((code >= 0x2010 && code < 0x2300) || (code >= 0x2400 && code < 0x25a0)) return 1;
  return 2;
}
