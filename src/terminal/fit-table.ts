/**
 * Tables that fit a terminal's width (docs/design.md §14). A table is laid out at its natural
 * width when that fits; otherwise the steps of its plan are applied in order (shorten a column
 * to its short form, cut it with `…` down to a floor, or drop it) until every row fits. The
 * plan is the table's stated order of importance: what matters least goes first. Widths are
 * display widths (string-width: CJK and emoji take two columns), so a row never wraps.
 * Without a width (a pipe, a file) rows are laid out in full, except for columns capped there.
 */
import type { Widths } from './table.js';

/** How one column is laid out. */
export interface FitColumn {
  align?: 'left' | 'right';
  /** The column's cells in a shorter form (row by row), used by a `shorten` step. */
  short?: readonly string[];
  /** Cut with `…` to this many columns when there is no width (piped output keeps its old cap). */
  pipedMax?: number;
  /** Text at the end of each cell (row by row) that a cut keeps: the cut takes what comes before it. */
  tail?: readonly string[];
}

/** One step of a plan: which column gives up room, and how. */
export type FitStep =
  | { shorten: number }
  /** Cut the column with `…`, to no fewer than `to` columns (and only as much as the row is too wide). */
  | { cut: number; to: number }
  | { drop: number };

/**
 * Lays out `rows` (cells by column) in at most `width` columns, giving up room as `plan` says:
 * the shortest prefix of the plan that makes the rows fit is applied, its cuts taking only the
 * room still missing once its drops and short forms have been counted, so that a column dropped
 * late gives its room back to a column cut early.
 */
export function fitTable(...args: Parameters<typeof fitRows>): string[] {
  return fitRows(...args).lines;
}

/**
 * `fitTable`, with the columns each line takes. Each cell is measured once, and a line's width is
 * the sum of its cells', pads and gaps (display widths add up across spaces): the session browser
 * lays out a page of rows on every repaint, and measured every cell three times and every line twice.
 */
export function fitRows(
  w: Widths,
  rows: readonly (readonly string[])[],
  columns: readonly FitColumn[],
  plan: readonly FitStep[],
  options: { width?: number; gap?: string } = {},
): { lines: string[]; used: number[] } {
  const { displayWidth, truncate, cutToColumns } = w;
  const gap = options.gap ?? '  ';
  const width = options.width;
  const full = rows.map((row, r) => columns.map((column, i) => {
    const cell = (row[i] ?? '') + (column.tail?.[r] ?? '');
    return width === undefined && column.pipedMax !== undefined ? truncate(cell, column.pipedMax) : cell;
  }));
  const measured = full.map((row) => row.map((cell) => displayWidth(cell)));
  const shortMeasured = columns.map((column) => column.short?.map((cell) => displayWidth(cell)));
  const natural = columns.map((_, i) => measured.reduce((max, row) => Math.max(max, row[i]!), 0));
  const short = columns.map((_, i) => shortMeasured[i]?.reduce((max, cell) => Math.max(max, cell), 0) ?? natural[i]!);
  // A column no row has anything in (no branch known, no fork listed) takes no room.
  const present = columns.map((_, i) => full.some((row) => row[i] !== ''));

  /** The column widths once the first `steps` steps of the plan are applied (undefined: dropped). */
  const attempt = (steps: number): { widths: (number | undefined)[]; shortened: Set<number>; total: number } => {
    const shortened = new Set<number>();
    const dropped = new Set<number>();
    for (const step of plan.slice(0, steps)) {
      if ('shorten' in step) shortened.add(step.shorten);
      else if ('drop' in step) dropped.add(step.drop);
    }
    const widths = columns.map((_, i) => (present[i] && !dropped.has(i) ? (shortened.has(i) ? short[i]! : natural[i]!) : undefined));
    const total = (): number => {
      const kept = widths.filter((w): w is number => w !== undefined);
      return kept.reduce((a, b) => a + b, 0) + gap.length * Math.max(0, kept.length - 1);
    };
    for (const step of plan.slice(0, steps)) {
      if (!('cut' in step) || width === undefined) continue;
      const over = total() - width;
      const now = widths[step.cut];
      if (over > 0 && now !== undefined && now > step.to) widths[step.cut] = Math.max(step.to, now - over);
    }
    return { widths, shortened, total: total() };
  };
  let chosen = attempt(0);
  for (let steps = 1; width !== undefined && chosen.total > width && steps <= plan.length; steps++) chosen = attempt(steps);

  const cells = full.map((row, r) => row.map((cell, i): { text: string; width: number } => {
    const shortCell = chosen.shortened.has(i) ? columns[i]!.short?.[r] : undefined;
    const text = shortCell ?? cell;
    const used = shortCell !== undefined ? shortMeasured[i]![r]! : measured[r]![i]!;
    const room = chosen.widths[i];
    if (room === undefined || used <= room) return { text, width: used };
    const tail = columns[i]!.tail?.[r] ?? '';
    const tailWidth = tail === '' ? 0 : displayWidth(tail);
    const kept = room - tailWidth;
    if (tail === '' || kept < 2) return cutToColumns(text, room);
    const cut = cutToColumns(text.slice(0, text.length - tail.length), kept);
    return { text: cut.text + tail, width: cut.width + tailWidth };
  }));
  const kept = columns.map((_, i) => i).filter((i) => chosen.widths[i] !== undefined);
  const pads = kept.map((i) => cells.reduce((max, row) => Math.max(max, row[i]!.width), 0));
  const lines: string[] = [];
  const used: number[] = [];
  for (const row of cells) {
    let line = '';
    let taken = 0;
    kept.forEach((i, k) => {
      const cell = row[i]!;
      if (k > 0) line += gap;
      if (k === kept.length - 1) {
        line += cell.text;
        taken += cell.width;
        return;
      }
      const pad = ' '.repeat(Math.max(0, pads[k]! - cell.width));
      line += columns[i]!.align === 'right' ? pad + cell.text : cell.text + pad;
      taken += Math.max(pads[k]!, cell.width);
    });
    taken += gap.length * Math.max(0, kept.length - 1);
    const trimmed = line.trimEnd();
    if (trimmed.length < line.length) taken -= displayWidth(line.slice(trimmed.length));
    // The plan's last resort: a terminal narrower than its most important columns still gets one line per row.
    const last = width !== undefined && taken > width ? cutToColumns(trimmed, width) : { text: trimmed, width: taken };
    lines.push(last.text);
    used.push(last.width);
  }
  return { lines, used };
}
