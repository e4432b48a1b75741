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
export function fitTable(
  w: Widths,
  rows: readonly (readonly string[])[],
  columns: readonly FitColumn[],
  plan: readonly FitStep[],
  options: { width?: number; gap?: string } = {},
): string[] {
  const { displayWidth, truncate } = w;
  const gap = options.gap ?? '  ';
  const width = options.width;
  const full = rows.map((row, r) => columns.map((column, i) => {
    const cell = (row[i] ?? '') + (column.tail?.[r] ?? '');
    return width === undefined && column.pipedMax !== undefined ? truncate(cell, column.pipedMax) : cell;
  }));
  const widest = (texts: readonly string[]): number => texts.reduce((max, text) => Math.max(max, displayWidth(text)), 0);
  const natural = columns.map((_, i) => widest(full.map((row) => row[i]!)));
  const short = columns.map((column, i) => (column.short ? widest(column.short) : natural[i]!));
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

  const cells = full.map((row, r) => row.map((cell, i) => {
    const text = chosen.shortened.has(i) ? columns[i]!.short?.[r] ?? cell : cell;
    const room = chosen.widths[i];
    if (room === undefined || displayWidth(text) <= room) return text;
    const tail = columns[i]!.tail?.[r] ?? '';
    const kept = room - displayWidth(tail);
    return tail !== '' && kept >= 2 ? truncate(text.slice(0, text.length - tail.length), kept) + tail : truncate(text, room);
  }));
  const kept = columns.map((_, i) => i).filter((i) => chosen.widths[i] !== undefined);
  const pads = kept.map((i) => widest(cells.map((row) => row[i]!)));
  const lines = cells.map((row) =>
    kept
      .map((i, k) => {
        const cell = row[i]!;
        if (k === kept.length - 1) return cell;
        const pad = ' '.repeat(Math.max(0, pads[k]! - displayWidth(cell)));
        return columns[i]!.align === 'right' ? pad + cell : cell + pad;
      })
      .join(gap)
      .trimEnd(),
  );
  // The plan's last resort: a terminal narrower than its most important columns still gets one line per row.
  return width === undefined ? lines : lines.map((line) => (displayWidth(line) > width ? truncate(line, width) : line));
}
