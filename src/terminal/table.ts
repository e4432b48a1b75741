/**
 * Display widths for tables (string-width: CJK and emoji take two columns, combining marks
 * none) and cutting text to a width with `…`; fit-table.ts lays tables out with them. Pure
 * once `loadTableWidths()` ran.
 */
import { fittingLength as fitWithin } from '../util/fitting-length.js';

type StringWidth = typeof import('string-width').default;
let stringWidth: StringWidth | undefined;

/** Loads string-width (lazily: it is not needed before anything is listed). Idempotent. */
export async function loadTableWidths(): Promise<void> {
  stringWidth ??= (await import('string-width')).default;
}

/** string-width once something has loaded it, else undefined (the wrapper estimates until then: docs/design.md §21). */
export function loadedWidth(): StringWidth | undefined {
  return stringWidth;
}

/**
 * Columns `text` takes on a terminal. string-width segments every string it is given; a repaint
 * of the session browser measures the same cells, frame chrome and key lines again on each key,
 * so printable ASCII is its length and other strings are remembered (a bounded map, emptied when full).
 */
export function displayWidth(text: string): number {
  if (!stringWidth) throw new Error('displayWidth() called before loadTableWidths()');
  if (PLAIN.test(text)) return text.length;
  let width = widths.get(text);
  if (width === undefined) {
    if (widths.size >= WIDTHS_KEPT) widths.clear();
    width = stringWidth(text);
    widths.set(text, width);
  }
  return width;
}

const widths = new Map<string, number>();
/** Enough for a few screens of cells; a long transcript's lines are measured once and forgotten. */
const WIDTHS_KEPT = 4_096;

/** `text` cut to at most `max` columns, ending in `…` when cut; control characters shown as spaces. */
export function truncate(text: string, max: number): string {
  return cutToColumns(text, max).text;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
const PLAIN = /^[\x20-\x7e]*$/;
let segmenter: Intl.Segmenter | undefined;

/** Graphemes of `text` with the columns each takes (printable ASCII is one column: string-width is not asked). */
export function* graphemeWidths(text: string): Generator<[string, number]> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) yield [segment, segment.length === 1 && PLAIN.test(segment) ? 1 : displayWidth(segment)];
}

/**
 * `truncate`, with the columns the result takes (for padding). A repaint of the session browser
 * cuts every row on screen: printable ASCII is measured by its length, and the rest grapheme by
 * grapheme only as far as the cut, so a long title is not walked to its end.
 */
export function cutToColumns(text: string, max: number): { text: string; width: number } {
  const flat = text.replace(CONTROLS, ' ');
  const whole = PLAIN.test(flat) ? flat.length : displayWidth(flat);
  if (whole <= max) return { text: flat, width: whole };
  if (max <= 0) return { text: '', width: 0 };
  let out = '';
  let width = 0;
  for (const [segment, w] of graphemeWidths(flat)) {
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  const kept = out.trimEnd();
  return { text: `${kept}…`, width: width - (out.length - kept.length) + 1 };
}

/** How much of `text` (in UTF-16 units) fits in `max` columns, whole graphemes only. */
export function fittingLength(text: string, max: number): number {
  return fitWithin(text, max, displayWidth);
}
