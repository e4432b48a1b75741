/**
 * Two sessions' messages after the point where they part, for `chatkeep sessions diff`: side by
 * side when the terminal is wide enough for two readable columns, else one side after the other
 * (always so on a pipe, where a script reads it). Pure: measured with the `Widths` it is given.
 */
import type { Comparison } from '../session/model/compare.js';
import type { Message } from '../session/api/data.js';
import { plural } from '../text/plural.js';
import { formatMessage } from './format.js';
import type { Widths } from './table.js';

/** The narrowest terminal that shows the two sides side by side (two columns of 48 and a rule). */
export const SIDE_BY_SIDE_COLUMNS = 100;

export interface DiffSide {
  id: string;
  title: string | null;
}

/** The lines of the comparison of `a` and `b`; `width`: the terminal's, when output is one. */
export function diffLines(widths: Widths, a: DiffSide, b: DiffSide, comparison: Comparison, width: number | undefined): string[] {
  const head = summaryLine(a, b, comparison);
  if (comparison.same) return [head];
  const first = comparison.common + 1;
  const left = [`${a.id}${after(comparison.a.length, first)}`, ...messageLines(comparison.a, first)];
  const right = [`${b.id}${after(comparison.b.length, first)}`, ...messageLines(comparison.b, first)];
  if (width === undefined) return [head, '', ...left, '', ...right];
  // A narrow terminal: one side after the other, broken at its width as the side-by-side columns are.
  if (width < SIDE_BY_SIDE_COLUMNS) return [head, '', ...left, '', ...right].flatMap((line) => wrap(widths, line, width));
  // Side by side, message beside message: each pair starts on the same row.
  const column = Math.floor((width - 3) / 2);
  const blocks = (lines: string[], messages: readonly Message[]): string[][] => [
    [lines[0]!],
    ...messages.map((m, i) => [`[${first + i}] ${m.role}`, ...formatMessage(m)]),
  ];
  const l = blocks(left, comparison.a);
  const r = blocks(right, comparison.b);
  const body: string[] = [];
  for (let i = 0; i < Math.max(l.length, r.length); i++) {
    const lw = (l[i] ?? []).flatMap((line) => wrap(widths, line, column));
    const rw = (r[i] ?? []).flatMap((line) => wrap(widths, line, column));
    for (let j = 0; j < Math.max(lw.length, rw.length); j++) body.push(`${pad(widths, lw[j] ?? '', column)} │ ${rw[j] ?? ''}`.trimEnd());
  }
  return [head, '', ...body];
}

/** `A and B share their first 4 messages, then part.` (or `… hold the same 4 messages.`). */
function summaryLine(a: DiffSide, b: DiffSide, c: Comparison): string {
  if (c.same) return `${a.id} and ${b.id} hold the same ${plural(c.common, 'message')}.`;
  if (c.common === 0) return `${a.id} and ${b.id} differ from their first message.`;
  return `${a.id} and ${b.id} share their first ${plural(c.common, 'message')}, then part.`;
}

function after(count: number, first: number): string {
  return count === 0 ? ': nothing after that' : `: ${plural(count, 'message')} from message ${first}`;
}

/** Each message numbered as it is in its session, its text as `sessions show` prints it. */
function messageLines(messages: readonly Message[], first: number): string[] {
  return messages.flatMap((m, i) => [`[${first + i}] ${m.role}`, ...formatMessage(m)]);
}

function pad(widths: Widths, text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - widths.displayWidth(text)));
}

/** `line` broken into lines of at most `width` columns, at a space where there is one in the second half. */
function wrap(widths: Widths, line: string, width: number): string[] {
  const { displayWidth, fittingLength } = widths;
  const out: string[] = [];
  let rest = line;
  while (displayWidth(rest) > width) {
    let cut = Math.max(1, fittingLength(rest, width));
    const space = rest.lastIndexOf(' ', cut);
    if (space > cut / 2) cut = space;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}
