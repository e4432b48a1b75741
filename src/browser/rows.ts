/**
 * The browser's list rows: one line each under a line of column headers, fitted to the width by
 * display width. Only the rows on screen are formatted: a repaint costs the same with 10 or
 * 10,000 sessions. Measured with the `Widths` the browser loaded as it opened.
 */
import type { SessionSummary } from '../session/api/listing.js';
import { hasControls, type Widths } from '../terminal/table.js';
import { fitRows, type FitColumn } from '../terminal/fit-table.js';
import { plural, SESSION_ROW_PLAN, shownTitle } from '../terminal/format.js';
import { visibleText } from '../text/visible-text.js';
import type { Entry } from './families.js';

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

/** The title column's text for `entry`: tree lines, what a fork is, the title, the project when another. */
function titleCell(entry: Entry, projectPath: string): string {
  const { row } = entry;
  // A fork says so: it starts with its parent's title, and would otherwise read as its parent.
  const fork = row.parentId === undefined ? '' : entry.lead !== '' ? `at ${row.forkPoint ?? 0} · ` : `fork at ${row.forkPoint ?? 0} · `;
  const project = row.project !== projectPath ? `  [${row.project}]` : '';
  return visibleText(`${entry.lead}${fork}${shownTitle(row)}${project}`);
}

/** A line of the list, cut to the width it was laid out for but not padded, and the columns it takes. */
export interface ListLine {
  text: string;
  width: number;
}

/**
 * The list's column headers and rows: marker and ID, age, messages, status (or who holds it),
 * branch, title (a folded family's `+N forks` kept at its end). Laid out as every table of
 * sessions is (`formatRows`), giving up room in the order `SESSION_ROW_PLAN` states, so the
 * title keeps the room the tables promise; each line is cut to `width`, with its width as
 * measured while laying it out (the frame pads it, `padded`, without measuring it again).
 */
export function formatPage(
  widths: Widths,
  entries: readonly Entry[],
  options: { selected: number; now: Date; width: number; projectPath: string; holding: (id: string) => Holding | undefined },
): { header: ListLine; lines: ListLine[] } {
  const branched = entries.some((entry) => entry.row.branch !== undefined);
  const header = ['  ID', 'age', 'msgs', 'status', branched ? 'branch' : '', '', 'title'];
  const cells = entries.map((entry, i) => {
    const { row } = entry;
    const holding = options.holding(row.id);
    const status = holding?.by === 'this' ? 'this chat' : holding ? 'in use' : row.problem ? row.problem.kind : row.status;
    return [`${i === options.selected ? '›' : ' '} ${row.id}`, shortAge(row.updatedAt, options.now), `${row.messageCount}`, status, row.branch ?? '', '', titleCell(entry, options.projectPath)];
  });
  const tails = ['', ...entries.map((entry) => (entry.folded > 0 ? `  +${plural(entry.folded, 'fork')}` : ''))];
  const columns: FitColumn[] = [{}, { align: 'right' }, { align: 'right' }, {}, {}, {}, { tail: tails }];
  const laid = fitRows(widths, [header, ...cells], columns, SESSION_ROW_PLAN, { width: options.width, gap: ' ' });
  const [head, ...lines] = laid.lines.map((text, i): ListLine => {
    // A control character (a branch's) shows as a space, as `fit` shows it: the rare line that holds one is measured again.
    const line = hasControls(text) ? widths.cutToColumns(text, options.width) : { text, width: laid.used[i]! };
    const trimmed = line.text.trimEnd();
    return trimmed.length === line.text.length ? line : { text: trimmed, width: line.width - widths.displayWidth(line.text.slice(trimmed.length)) };
  });
  return { header: head!, lines };
}

/** `line` padded to `width` columns (at least its own). */
export function padded(line: ListLine, width: number): string {
  return line.text + ' '.repeat(Math.max(0, width - line.width));
}

/** `text` cut (or padded) to exactly `width` columns. */
export function fit(widths: Widths, text: string, width: number): string {
  const { text: cut, width: used } = widths.cutToColumns(text, width);
  return cut + ' '.repeat(Math.max(0, width - used));
}
