/**
 * The browser's list rows: one line each, fitted to the width by display width, with columns
 * whose widths do not depend on which rows are on the page (so nothing shifts while scrolling).
 * Only the rows on screen are formatted: a repaint costs the same with 10 or 10,000 sessions.
 * Needs `loadTableWidths()` first.
 */
import type { SessionSummary } from '../session/listing.js';
import { cutToColumns } from '../terminal/table.js';
import { shownTitle } from '../terminal/format.js';

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
  const { text: cut, width: used } = cutToColumns(text, width);
  return cut + ' '.repeat(Math.max(0, width - used));
}
