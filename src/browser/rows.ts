/**
 * The browser's list rows: one line each, fitted to the width by display width, with columns
 * whose widths do not depend on which rows are on the page (so nothing shifts while scrolling).
 * Only the rows on screen are formatted: a repaint costs the same with 10 or 10,000 sessions.
 * Needs `loadTableWidths()` first.
 */
import type { SessionSummary } from '../session/types.js';
import { displayWidth } from '../repl/table.js';
import { shownTitle } from '../repl/format.js';

/** Who holds a session, when someone does: this process (the REPL's own session) or another one. */
export type Holding = { by: 'this' } | { by: 'other'; pid: number; host: string };

/** `now`, `5m`, `3h`, `2d`, `6w`, `1y`: how long ago, in at most four columns. */
export function shortAge(date: Date, now: Date): string {
  const s = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 86_400 * 14) return `${Math.floor(s / 86_400)}d`;
  if (s < 86_400 * 365) return `${Math.floor(s / (86_400 * 7))}w`;
  return `${Math.floor(s / (86_400 * 365))}y`;
}

/** What the ID column needs for these rows (IDs are ASCII: their length is their width). */
export function idWidth(rows: readonly SessionSummary[]): number {
  let width = 0;
  for (const row of rows) if (row.id.length > width) width = row.id.length;
  return width;
}

/**
 * One row: marker, ID, age, messages, status (or who holds it), branch, title, and the project
 * when it is not `projectPath`. Cut with `…` at `width`.
 */
export function formatRow(
  row: SessionSummary,
  options: { selected: boolean; idColumn: number; now: Date; width: number; projectPath: string; holding?: Holding | undefined },
): string {
  const { holding } = options;
  const status = holding?.by === 'this' ? 'this chat' : holding ? 'in use' : row.problem ? row.problem.kind : row.status;
  // The chosen title, else the automatic one an earlier build's session gets when listed.
  const title = shownTitle(row);
  const project = row.project !== options.projectPath ? `  [${row.project}]` : '';
  const line = [
    `${options.selected ? '›' : ' '} ${row.id.padEnd(options.idColumn)}`,
    shortAge(row.updatedAt, options.now).padStart(4),
    `${row.messageCount}`.padStart(5),
    status.padEnd(11),
    `${row.branch ? `${row.branch}  ` : ''}${title}${project}`,
  ].join(' ');
  return fit(line, options.width);
}

/** `text` cut (or padded) to exactly `width` columns. */
export function fit(text: string, width: number): string {
  const { text: cut, width: used } = cut_(text, width);
  return cut + ' '.repeat(Math.max(0, width - used));
}

/** `text` cut to at most `max` columns (ending in `…` when cut), control characters as spaces, and the columns it takes. */
export function cutToWidth(text: string, max: number): string {
  return cut_(text, max).text;
}

// eslint-disable-next-line no-control-regex
const PLAIN = /^[\x20-\x7e]*$/;
let segmenter: Intl.Segmenter | undefined;

/** Graphemes of `text` with the columns each takes (printable ASCII is one column: no need to ask string-width). */
export function* graphemeWidths(text: string): Generator<[string, number]> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) yield [segment, segment.length === 1 && PLAIN.test(segment) ? 1 : displayWidth(segment)];
}

/**
 * A repaint formats every row on screen: measuring whole lines with string-width made one frame
 * cost ~13 ms. Printable ASCII is measured by its length; only the rest goes grapheme by grapheme.
 */
function cut_(text: string, max: number): { text: string; width: number } {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
  if (PLAIN.test(flat)) return flat.length <= max ? { text: flat, width: flat.length } : { text: `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`, width: Math.min(max, flat.slice(0, Math.max(0, max - 1)).trimEnd().length + 1) };
  const whole = displayWidth(flat);
  if (whole <= max) return { text: flat, width: whole };
  // Only as far as the cut: a long title is not walked to its end.
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
