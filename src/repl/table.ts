/**
 * The one place tables are laid out (session listings, pickers): columns aligned by display
 * width (string-width: CJK and emoji take two columns, combining marks none), and one
 * flexible column cut with `…` so a row stays one line. Pure once `loadTableWidths()` ran.
 */
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
  let out = '';
  let width = 0;
  // By grapheme, so an emoji or an accented letter is never split.
  for (const { segment } of graphemes().segment(flat)) {
    const w = displayWidth(segment);
    if (width + w > max - 1) break;
    out += segment;
    width += w;
  }
  return `${out.trimEnd()}…`;
}

let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** How one column is laid out. */
export interface Column {
  align?: 'left' | 'right';
  /**
   * Takes the room the line has left (`width` of the table) and is cut with `…` beyond it, and
   * beyond `max` in any case. The last flexible column is not padded.
   */
  flex?: { max: number; min: number };
}

/** Lays out rows of cells: `columns[i]` describes cell i; cells are separated by `gap`. */
export function layoutTable(rows: readonly (readonly string[])[], columns: readonly Column[], options: { width?: number; gap?: string } = {}): string[] {
  const gap = options.gap ?? '  ';
  const fixed = columns.map((column, i) => (column.flex ? 0 : Math.max(0, ...rows.map((row) => displayWidth(row[i] ?? '')))));
  const flexible = columns.filter((column) => column.flex).length;
  const used = fixed.reduce((a, b) => a + b, 0) + gap.length * (columns.length - 1);
  const share = options.width === undefined ? Infinity : Math.floor((options.width - used) / Math.max(1, flexible));
  const cells = rows.map((row) =>
    columns.map((column, i) => (column.flex ? truncate(row[i] ?? '', Math.min(column.flex.max, Math.max(column.flex.min, share))) : row[i] ?? '')),
  );
  const widths = columns.map((column, i) => (column.flex ? Math.max(0, ...cells.map((row) => displayWidth(row[i]!))) : fixed[i]!));
  return cells.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell;
        const pad = ' '.repeat(Math.max(0, widths[i]! - displayWidth(cell)));
        return columns[i]!.align === 'right' ? pad + cell : cell + pad;
      })
      .join(gap)
      .trimEnd(),
  );
}
