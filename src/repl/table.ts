/**
 * Display widths for tables (string-width: CJK and emoji take two columns, combining marks
 * none) and cutting text to a width with `…`; fit-table.ts lays tables out with them. Pure
 * once `loadTableWidths()` ran.
 */
import { fittingLength as fitWithin } from '../session/fitting-length.js';

type StringWidth = typeof import('string-width').default;
let stringWidth: StringWidth | undefined;

/** Loads string-width (lazily: it is not needed before anything is listed). Idempotent. */
export async function loadTableWidths(): Promise<void> {
  stringWidth ??= (await import('string-width')).default;
}

/** Columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  if (!stringWidth) throw new Error('displayWidth() called before loadTableWidths()');
  return stringWidth(text);
}

/** `text` cut to at most `max` columns, ending in `…` when cut; control characters shown as spaces. */
export function truncate(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  if (displayWidth(flat) <= max) return flat;
  if (max <= 0) return '';
  return `${flat.slice(0, fittingLength(flat, max - 1)).trimEnd()}…`;
}

/** How much of `text` (in UTF-16 units) fits in `max` columns, whole graphemes only. */
export function fittingLength(text: string, max: number): number {
  return fitWithin(text, max, displayWidth);
}
