/**
 * The browser's screen as text, from what it shows: heading, filter line, the query line, the
 * list, the preview (a side pane on wide terminals, a lower pane toggled on narrow ones), the
 * keys and the last action's outcome. Pure: every line fits `columns`, and the whole fits `lines`.
 */
import type { ChalkInstance } from 'chalk';
import type { SessionSnapshot } from '../session/api/data.js';
import type { Widths } from '../terminal/table.js';
import type { Entry } from './families.js';
import { filterLine, NO_FILTERS, type Filters } from './filters.js';
import { previewLines, wrapWords } from './preview.js';
import { fit, formatPage, padded, type Holding } from './rows.js';

/** Columns from which the preview is a side pane. */
export const WIDE = 120;

export interface Frame {
  heading: string;
  all: boolean;
  projectPath: string;
  /** Sessions of the scope (before the query and filters). */
  total: number;
  /** `total` is only the scope's newest rows: the rest are still being listed. */
  partial?: boolean;
  /** The query (trimmed) and how many sessions it alone leaves; what the filters then leave. */
  query: string;
  matched: number;
  shown: number;
  /** The list's lines: what the query and filters leave, as families (families.ts). */
  entries: readonly Entry[];
  selected: number;
  /** The first row on screen (kept by the caller between frames). */
  top: number;
  filters: Filters;
  /** The query line's label (`Search: `, `Rename to: `) and the text typed after it. */
  label: string;
  typed: string;
  searching: boolean;
  /** The query's first matches are shown, the rest still being found (the counts are of those found so far). */
  more?: boolean;
  preview: { on: boolean; snapshot: SessionSnapshot | undefined };
  holding: (id: string) => Holding | undefined;
  /** What the last action said (a printed command stands on its own line); wrapped by `saidLines`. */
  message: readonly string[];
  now: Date;
  columns: number;
  lines: number;
  color: ChalkInstance;
  /** What text is measured with (loaded as the browser opened). */
  widths: Widths;
}

/** The keys: on one line when wide, else two of under 80 columns, each wrapped between keys where narrower. */
const KEYS = ['Enter resume · Tab this/every project · ^O preview · Esc quit', '^F fork · ^R rename · ^X trash · ^E export · → ← forks · ↑↓ PgUp PgDn Home End'];

/** The fewest columns the side pane keeps: below it the list cuts its titles instead. */
const PANE_MIN = 30;

/** Lines that are not list or preview: heading, filters, query, column headers; the keys and the `said` lines of the message. */
function chrome(widths: Widths, columns: number, said: number): number {
  return 4 + keyLines(widths, columns).length + said;
}

/** The key lines of the last width asked: every frame asks three times (its height, the view's, its footer). */
let keysAt: { widths: Widths; columns: number; lines: string[] } | undefined;

function keyLines(widths: Widths, columns: number): string[] {
  if (keysAt?.widths === widths && keysAt.columns === columns) return keysAt.lines;
  const lines = keyLinesAt(widths, columns);
  keysAt = { widths, columns, lines };
  return lines;
}

function keyLinesAt(widths: Widths, columns: number): string[] {
  const width = usable(columns);
  return (columns >= WIDE ? [KEYS.join(' · ')] : KEYS).flatMap((line) => {
    const out: string[] = [];
    for (const key of line.split(' · ')) {
      const last = out.at(-1);
      if (last !== undefined && widths.displayWidth(`${last} · ${key}`) <= width) out[out.length - 1] = `${last} · ${key}`;
      else out.push(key);
    }
    return out;
  });
}

/** How many list rows fit (the caller scrolls `top` by it), with `said` lines of message (see `saidLines`). */
export function listHeight(widths: Widths, columns: number, lines: number, previewOn: boolean, said = 2): number {
  const area = Math.max(1, lines - chrome(widths, columns, said));
  if (columns >= WIDE || !previewOn) return area;
  return Math.max(1, Math.min(area, Math.ceil(area / 3)));
}

/** `top` moved as little as possible so that `selected` is on screen. */
export function scrolled(top: number, selected: number, height: number, count: number): number {
  let next = Math.min(top, Math.max(0, count - height));
  if (selected < next) next = selected;
  if (selected >= next + height) next = selected - height + 1;
  return Math.max(0, next);
}

/** The width the screen's lines take at `columns`: one column spare (a line that fills the last one leaves the cursor waiting to wrap). */
export const usable = (columns: number): number => Math.max(20, columns - 1);

/**
 * What the last action said, as the lines the screen gives it: wrapped at spaces to the width
 * (a file name or a command is never cut off), at least two (the list does not jump as messages
 * come and go), at most `SAID_MAX`, the last of which then ends in `…`.
 */
export function saidLines(widths: Widths, message: readonly string[], columns: number): string[] {
  const width = usable(columns);
  const out = message.flatMap((line) => wrapWords(widths, line, width));
  if (out.length > SAID_MAX) out.splice(SAID_MAX - 1, out.length, widths.truncate(`${out[SAID_MAX - 1]!} …`, width));
  while (out.length < 2) out.push('');
  return out;
}

const SAID_MAX = 4;

/** What the list says when nothing is on it: which of the query, the filters or the scope is why. */
function emptyLine(frame: Frame): string {
  // Nothing among the first matches passes the filters: the rest may.
  if (frame.searching || frame.more === true) return 'Searching…';
  // Nothing among the newest rows: the rest may hold what is asked for.
  if (frame.partial === true) return 'Listing every session…';
  if (frame.total === 0) return frame.all ? 'No sessions yet.' : 'No sessions in this project yet: Tab shows every project.';
  const filtered = !sameFilters(frame.filters, NO_FILTERS);
  if (frame.query !== '' && (frame.matched === 0 || !filtered)) return 'No session matches the query: Backspace or ^U clears it.';
  const some = frame.query !== '' ? `None of the ${frame.matched === 1 ? 'one match' : `${frame.matched} matches`} passes` : 'No session passes';
  return `${some} the filters on the line above: ^B, ^T and ^G step each back to none.`;
}

const sameFilters = (a: Filters, b: Filters): boolean => a.branch === b.branch && a.status === b.status && a.days === b.days;

/** The screen: `top` ends with the query line (where the cursor stays), `bottom` is the rest. */
export function drawFrame(frame: Frame): { top: string; bottom: string } {
  const { color, columns, lines, widths } = frame;
  const width = usable(columns);
  // The count before the scope: a long project path is what gets cut.
  const scope = frame.all ? 'every project' : `this project (${frame.projectPath})`;
  // Of the newest rows alone while the rest are listed: a count is never given as the whole when it is not.
  const of = frame.partial === true ? `${frame.shown} of the newest ${frame.total} · listing the rest…` : `${frame.shown} of ${frame.total}`;
  const count = `${of}${frame.searching ? ' · searching…' : frame.more === true ? ' · finding more…' : ''}`;
  const top = [
    color.bold(fit(widths, `${frame.heading} · ${count} · ${scope}`, width).trimEnd()),
    color.dim(fit(widths, filterLine(frame.filters), width).trimEnd()),
    `${frame.label}${frame.typed}`,
  ];
  const said = saidLines(widths, frame.message, columns);
  const height = listHeight(widths, columns, lines, frame.preview.on, said.length);
  const wide = columns >= WIDE && frame.preview.on;
  const page = frame.entries.slice(frame.top, frame.top + height);
  // The preview gives way first: the list takes what its rows need (the title up to the room
  // the tables give it), the pane the rest, down to PANE_MIN.
  const rows = formatPage(widths, page, { selected: frame.selected - frame.top, now: frame.now, width: wide ? width - 3 - PANE_MIN : width, projectPath: frame.projectPath, holding: frame.holding });
  const listWidth = wide ? Math.max(rows.header.width, ...rows.lines.map((line) => line.width), Math.floor(width * 0.4)) : width;
  // Every line of the side-by-side list is as wide as the list (the pane's rule lines up); else
  // only the highlighted one is padded (its bar spans the width).
  const list = rows.lines.map((line, i) => (frame.top + i === frame.selected ? color.inverse(padded(line, listWidth)) : wide ? padded(line, listWidth) : line.text));
  if (frame.entries.length === 0) list.push(...wrapWords(widths, emptyLine(frame), listWidth).map((line) => fit(widths, line, listWidth)));
  while (list.length < height) list.push(' '.repeat(listWidth));
  const current = frame.entries[frame.selected];
  const body: string[] = [];
  if (wide) {
    const paneWidth = width - listWidth - 3;
    const pane = current ? paneLines(frame, current, paneWidth, height + 1) : [];
    [color.dim(padded(rows.header, listWidth)), ...list].forEach((line, i) => body.push(`${line} ${color.dim('│')} ${pane[i] ?? ''}`.trimEnd()));
  } else {
    body.push(color.dim(rows.header.text), ...list.map((line) => line.trimEnd()));
    if (frame.preview.on) {
      const room = Math.max(0, lines - chrome(widths, columns, said.length) - height - 1);
      body.push(color.dim('─'.repeat(width)));
      if (current) body.push(...paneLines(frame, current, width, room));
    }
  }
  const keys = keyLines(widths, columns);
  const footer = [...keys.map((line) => color.dim(fit(widths, line, width).trimEnd())), ...said];
  const room = Math.max(0, lines - top.length - footer.length);
  const bottom = [...body.slice(0, room), ...Array.from({ length: Math.max(0, room - body.length) }, () => ''), ...footer];
  return { top: top.join('\n'), bottom: bottom.join('\n') };
}

/** The preview pane's lines for `entry`: its facts, dimmed, then its last exchanges (a fork's: where it parted). */
function paneLines(frame: Frame, entry: Entry, width: number, height: number): string[] {
  const { row } = entry;
  const { head, body } = previewLines(frame.widths, row, frame.preview.snapshot?.id === row.id ? frame.preview.snapshot : undefined, {
    width,
    height,
    holding: frame.holding(row.id),
    folded: entry.folded,
  });
  return [...head.map((line) => frame.color.dim(line)), '', ...body].slice(0, height);
}
