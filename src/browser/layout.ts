/**
 * The browser's screen as text, from what it shows: heading, filter line, the query line, the
 * list, the preview (a side pane on wide terminals, a lower pane toggled on narrow ones), the
 * keys and the last action's outcome. Pure: every line fits `columns`, and the whole fits `lines`.
 */
import type { ChalkInstance } from 'chalk';
import type { SessionSnapshot } from '../session/data.js';
import type { SessionSummary } from '../session/listing.js';
import { filterLine, type Filters } from './filters.js';
import { previewLines } from './preview.js';
import { fit, formatRow, idWidth, type Holding } from './rows.js';

/** Columns from which the preview is a side pane. */
export const WIDE = 120;

export interface Frame {
  heading: string;
  all: boolean;
  projectPath: string;
  /** Sessions of the scope (before the query and filters). */
  total: number;
  /** What the query and filters leave, in order. */
  shown: readonly SessionSummary[];
  selected: number;
  /** The first row on screen (kept by the caller between frames). */
  top: number;
  filters: Filters;
  /** The query line's label (`Search: `, `Rename to: `) and the text typed after it. */
  label: string;
  typed: string;
  searching: boolean;
  preview: { on: boolean; snapshot: SessionSnapshot | undefined };
  holding: (id: string) => Holding | undefined;
  /** What the last action said (at most two lines: a printed command stands on its own). */
  message: readonly string[];
  now: Date;
  columns: number;
  lines: number;
  color: ChalkInstance;
}

/** The keys, on one line when wide, else on two of under 80 columns. */
const KEYS = ['Enter resume · Tab this/every project · ^O preview · Esc quit', '^F fork · ^R rename · ^X trash · ^E export · ↑↓ PgUp PgDn Home End'];

/** Lines that are not list or preview: heading, filters, query; the keys and the message. */
function chrome(columns: number): number {
  return 3 + (columns >= WIDE ? 1 : KEYS.length) + 2;
}

/** How many list rows fit (the caller scrolls `top` by it). */
export function listHeight(columns: number, lines: number, previewOn: boolean): number {
  const area = Math.max(1, lines - chrome(columns));
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

/** The screen: `top` ends with the query line (where the cursor stays), `bottom` is the rest. */
export function drawFrame(frame: Frame): { top: string; bottom: string } {
  const { color, columns, lines } = frame;
  // One column spare: a line that fills the last column would leave the cursor waiting to wrap.
  const width = Math.max(20, columns - 1);
  // The count before the scope: a long project path is what gets cut.
  const scope = frame.all ? 'every project' : `this project (${frame.projectPath})`;
  const count = `${frame.shown.length} of ${frame.total}${frame.searching ? ' · searching…' : ''}`;
  const top = [
    color.bold(fit(`${frame.heading} · ${count} · ${scope}`, width).trimEnd()),
    color.dim(fit(filterLine(frame.filters), width).trimEnd()),
    `${frame.label}${frame.typed}`,
  ];
  const height = listHeight(columns, lines, frame.preview.on);
  const wide = columns >= WIDE && frame.preview.on;
  const listWidth = wide ? Math.floor(width * 0.55) : width;
  const idColumn = idWidth(frame.shown.slice(frame.top, frame.top + height));
  const list: string[] = [];
  for (let i = frame.top; i < Math.min(frame.shown.length, frame.top + height); i++) {
    const row = frame.shown[i]!;
    const text = formatRow(row, { selected: i === frame.selected, idColumn, now: frame.now, width: listWidth, projectPath: frame.projectPath, holding: frame.holding(row.id) });
    list.push(i === frame.selected ? color.inverse(text) : text);
  }
  if (frame.shown.length === 0) list.push(fit(frame.searching ? 'Searching…' : 'No session matches. Backspace or ^U clears the query; the filters are on the line above.', listWidth));
  while (list.length < height) list.push(' '.repeat(listWidth));
  const current = frame.shown[frame.selected];
  const body: string[] = [];
  if (wide) {
    const paneWidth = width - listWidth - 3;
    const pane = current ? paneLines(frame, current, paneWidth, height) : [];
    for (let i = 0; i < height; i++) body.push(`${list[i]} ${color.dim('│')} ${pane[i] ?? ''}`.trimEnd());
  } else {
    body.push(...list.map((line) => line.trimEnd()));
    if (frame.preview.on) {
      const room = Math.max(0, lines - chrome(columns) - height - 1);
      body.push(color.dim('─'.repeat(width)));
      if (current) body.push(...paneLines(frame, current, width, room));
    }
  }
  const keys = columns >= WIDE ? [KEYS.join(' · ')] : KEYS;
  const said = [frame.message[0] ?? '', frame.message[1] ?? ''].map((line) => fit(line, width).trimEnd());
  const footer = [...keys.map((line) => color.dim(fit(line, width).trimEnd())), ...said];
  const room = Math.max(0, lines - top.length - footer.length);
  const bottom = [...body.slice(0, room), ...Array.from({ length: Math.max(0, room - body.length) }, () => ''), ...footer];
  return { top: top.join('\n'), bottom: bottom.join('\n') };
}

/** The preview pane's lines for `row`: its facts, dimmed, then its last exchanges. */
function paneLines(frame: Frame, row: SessionSummary, width: number, height: number): string[] {
  const { head, body } = previewLines(row, frame.preview.snapshot?.id === row.id ? frame.preview.snapshot : undefined, {
    width,
    height,
    holding: frame.holding(row.id),
  });
  return [...head.map((line) => frame.color.dim(line)), '', ...body].slice(0, height);
}
