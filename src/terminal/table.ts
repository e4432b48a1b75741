/**
 * Display widths for tables (string-width: CJK and emoji take two columns, combining marks
 * none) and cutting text to a width with `…`; fit-table.ts lays tables out with them. Pure
 * once `loadWidths()` resolved.
 */
import { fittingLength as fitWithin } from '../util/fitting-length.js';

type StringWidth = typeof import('string-width').default;

/**
 * Measuring and cutting text by display width, with string-width loaded: the one way tables,
 * pickers, the browser and the tree measure text. Made by `loadWidths()` (a `Formatter`, format.ts,
 * carries it), so nothing can measure before string-width is there.
 */
export interface Widths {
  /** Columns `text` takes on a terminal. */
  displayWidth(text: string): number;
  /** `text` cut to at most `max` columns, ending in `…` when cut; control characters shown as spaces. */
  truncate(text: string, max: number): string;
  /** `truncate`, with the columns the result takes (for padding). */
  cutToColumns(text: string, max: number): { text: string; width: number };
  /** How much of `text` (in UTF-16 units) fits in `max` columns, whole graphemes only. */
  fittingLength(text: string, max: number): number;
  /** Graphemes of `text` with the columns each takes. */
  graphemeWidths(text: string): Generator<[string, number]>;
}

let loading: Promise<Widths> | undefined;
let loaded: Widths | undefined;

/** Loads string-width (lazily: it is not needed before anything is listed, docs/design.md §21). */
export function loadWidths(): Promise<Widths> {
  return (loading ??= import('string-width').then(({ default: stringWidth }) => (loaded = widthsWith(stringWidth))));
}

/** The widths once something has loaded them, else undefined (the wrapper estimates until then: docs/design.md §21). */
export function loadedWidths(): Widths | undefined {
  return loaded;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
/** CONTROLS without its global flag: `test` keeps no position between calls. */
const CONTROL = new RegExp(CONTROLS.source);
const PLAIN = /^[\x20-\x7e]*$/;
const printable = (code: number): boolean => code >= 0x20 && code <= 0x7e;

/** True when `text` holds a character that `cutToColumns` shows as a space. */
export const hasControls = (text: string): boolean => CONTROL.test(text);

/** Enough for a few screens of cells; a long transcript's lines are measured once and forgotten. */
const WIDTHS_KEPT = 4_096;

function widthsWith(stringWidth: StringWidth): Widths {
  const widths = new Map<string, number>();
  let segmenter: Intl.Segmenter | undefined;

  /**
   * string-width segments every string it is given; a repaint of the session browser measures
   * the same cells, frame chrome and key lines again on each key, so printable ASCII is its
   * length and other strings are remembered (a bounded map, emptied when full).
   */
  function displayWidth(text: string): number {
    if (PLAIN.test(text)) return text.length;
    let width = widths.get(text);
    if (width === undefined) {
      if (widths.size >= WIDTHS_KEPT) widths.clear();
      width = stringWidth(text);
      widths.set(text, width);
    }
    return width;
  }

  /**
   * Printable ASCII is one column: string-width is not asked. A printable ASCII character before
   * another (or at the end) is a grapheme of its own, so only the rest is segmented: a frame's
   * heading, rules and paths are mostly ASCII, and segmenting all of a line cost six times as much.
   */
  function* graphemeWidths(text: string): Generator<[string, number]> {
    let segments: Intl.Segments | undefined;
    for (let i = 0; i < text.length; ) {
      if (printable(text.charCodeAt(i)) && (i + 1 === text.length || printable(text.charCodeAt(i + 1)))) {
        yield [text[i]!, 1];
        i++;
        continue;
      }
      segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
      const { segment, index } = (segments ??= segmenter.segment(text)).containing(i)!;
      yield [segment, segment.length === 1 && PLAIN.test(segment) ? 1 : displayWidth(segment)];
      i = index + segment.length;
    }
  }

  /**
   * A repaint of the session browser cuts every row on screen: printable ASCII is measured by its
   * length, and the rest grapheme by grapheme only as far as the cut, so a long title is not
   * walked to its end.
   */
  function cutToColumns(text: string, max: number): { text: string; width: number } {
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

  return {
    displayWidth,
    graphemeWidths,
    cutToColumns,
    truncate: (text, max) => cutToColumns(text, max).text,
    fittingLength: (text, max) => fitWithin(text, max, displayWidth),
  };
}
