/**
 * Text shown for sessions: listing rows, relative times, the tail of a transcript.
 * Pure functions of their inputs (the clock is passed in).
 */
import { estimateCost, formatCost } from '../models/cost.js';
import type { Advice } from '../session/api/errors.js';
import type { Message, ModelUsage, SessionStats, Usage } from '../session/api/data.js';
import type { SessionProblem, SessionSummary } from '../session/api/listing.js';
import type { Session } from '../session/api/session-api.js';
import { plural } from '../text/plural.js';
import { relativeTime } from '../text/relative-time.js';
import { visibleText } from '../text/visible-text.js';
import { loadWidths, type Widths } from './table.js';
import { fitTable, type FitColumn, type FitStep } from './fit-table.js';
import { groupDigits } from './digits.js';

/**
 * What text about sessions is measured, cut and laid out with: string-width's display widths
 * (`Widths`), relative times and listing rows. `loadFormatter()` makes it, loading string-width
 * (before anything is listed, never on the way to the first prompt); the caller awaits it once
 * and passes it on, so nothing can measure before the widths are there.
 */
export interface Formatter extends Widths {
  /** `5 minutes ago` (`relativeTime`, which needs nothing loaded). */
  relativeTime(date: Date, now: Date): string;
  /** Listing rows that fit `width` ({@link formatRows}). */
  formatRows(rows: readonly SessionSummary[], options: RowOptions): string[];
}

/** Loads string-width once (later calls resolve at once) and makes a `Formatter`. */
export async function loadFormatter(): Promise<Formatter> {
  const widths = await loadWidths();
  return { ...widths, relativeTime, formatRows: (rows, options) => formatRows(widths, rows, options) };
}

/** How listing rows are laid out: the current session marked, another project named, the width to fit. */
export interface RowOptions {
  currentId?: string;
  projectPath?: string;
  now: Date;
  width?: number;
}

export { relativeTime } from '../text/relative-time.js';
export { plural } from '../text/plural.js';

/** Columns a title may take in a listing that is not on a terminal (a pipe, a file). */
export const TITLE_COLUMNS = 60;

/** keyInSelect shows a picker row after `[1] `: the room it takes from the terminal's width. */
const PICKER_KEY_WIDTH = 4;

/** The width listing rows may take on `screen` (a picker's rows lose the room of its keys); undefined when piped. */
export function rowWidth(screen: { columns(): number | undefined }, picker: boolean): number | undefined {
  const columns = screen.columns();
  return columns === undefined ? undefined : columns - (picker ? PICKER_KEY_WIDTH : 0);
}

/** The cells of a listing row: marker and ID, last active, messages (and tokens), status, branch, lineage, title. */
const Cell = { Id: 0, Age: 1, Messages: 2, Status: 3, Branch: 4, Lineage: 5, Title: 6 } as const;

/**
 * What gives up room when a listing row is wider than the terminal, first to last (the order of
 * importance, least important first): tokens and cost, then the title's room beyond 48 columns,
 * lineage and branch cut, the last-active time in short form (`5m ago`), the title to 32, lineage
 * and branch dropped, the title to 24, the message count, the status, the last-active time, the
 * title to 12. The marker and ID go last: a row is cut to the width only when even they do not fit.
 */
export const SESSION_ROW_PLAN: readonly FitStep[] = [
  { shorten: Cell.Messages },
  { cut: Cell.Title, to: 48 },
  { cut: Cell.Lineage, to: 28 },
  { cut: Cell.Branch, to: 20 },
  { shorten: Cell.Age },
  { cut: Cell.Title, to: 32 },
  { drop: Cell.Lineage },
  { drop: Cell.Branch },
  { cut: Cell.Title, to: 24 },
  { drop: Cell.Messages },
  { drop: Cell.Status },
  { drop: Cell.Age },
  { cut: Cell.Title, to: 12 },
];

/**
 * Listing rows, one line each, columns aligned by display width: a `*` marks the current
 * session; rows of another project than `projectPath` name it; the git branch, when any row has
 * one, and the lineage, when any row is a fork, come between the status and the title. The row
 * text of every table and picker of sessions (the session browser's too). With `width` (the
 * terminal's, or a pane's) every row fits it, giving up room as {@link SESSION_ROW_PLAN} says;
 * without it (piped) rows are whole, the title cut at {@link TITLE_COLUMNS}, a fork's lineage after it.
 */
export function formatRows(widths: Widths, rows: readonly SessionSummary[], options: RowOptions): string[] {
  const piped = options.width === undefined;
  const count = (row: SessionSummary): string => (countKnown(row.problem) ? plural(row.messageCount, 'message') : '? messages');
  const cells = rows.map((row) => [
    `${row.id === options.currentId ? '*' : ' '} ${row.id}`,
    relativeTime(row.updatedAt, options.now),
    count(row) + (countKnown(row.problem) ? tokens(row.usage, row.byModel) : ''),
    row.problem ? problemLabel(row.problem) : row.status,
    row.branch ?? '',
    // Piped, the lineage follows the title instead (below): as a column it pads every other row.
    row.parentId !== undefined && !piped ? lineage(row.parentId, row.forkPoint) : '',
    visibleText(shownTitle(row) + (row.owner !== undefined ? `  (${row.owner}'s)` : '') + (options.projectPath !== undefined && row.project !== options.projectPath ? `  [${row.project}]` : '')),
  ]);
  const columns: FitColumn[] = [];
  columns[Cell.Age] = { short: rows.map((row) => shortAge(row.updatedAt, options.now)) };
  columns[Cell.Messages] = { align: 'right', short: rows.map(count) };
  columns[Cell.Title] = { pipedMax: TITLE_COLUMNS };
  const lines = fitTable(widths, cells, Array.from(columns, (c) => c ?? {}), SESSION_ROW_PLAN, { width: options.width });
  if (!piped) return lines;
  return lines.map((line, i) => {
    const row = rows[i]!;
    return row.parentId === undefined ? line : `${line}  (${lineage(row.parentId, row.forkPoint)})`;
  });
}

/** The title a listing shows: the stored one, else the automatic one derived when listed, else `(untitled)`. */
export function shownTitle(row: { title: string | null; derivedTitle?: string }): string {
  return row.title ?? row.derivedTitle ?? '(untitled)';
}

/** `now`, `5m ago`, `3h ago`, `2d ago`, `4mo ago`, `1y ago`: the last-active time where room is short. */
export function shortAge(date: Date, now: Date): string {
  const s = Math.max(0, (now.getTime() - date.getTime()) / 1000);
  if (s < 60) return 'now';
  const [n, unit] = s < 3600 ? [s / 60, 'm'] : s < 86_400 ? [s / 3600, 'h'] : s < 30 * 86_400 ? [s / 86_400, 'd'] : s < 365 * 86_400 ? [s / (30 * 86_400), 'mo'] : [s / (365 * 86_400), 'y'];
  return `${Math.floor(n)}${unit} ago`;
}

/** False when the files could not be read at all, so no message count is known. */
export function countKnown(problem: SessionProblem | undefined): boolean {
  return problem === undefined || problem.kind === 'damaged' || problem.kind === 'recovered';
}

/** What a listing shows instead of the status: `damaged`, `newer version (needs chatkeep ≥ 0.3.0)`, `unreadable`. */
export function problemLabel(problem: SessionProblem): string {
  if (problem.kind === 'newer-version') return `newer version${problem.needs ? ` (needs chatkeep ≥ ${problem.needs})` : ''}`;
  return problem.kind;
}

/**
 * What is wrong with a session's files and how to recover, in one line: what `sessions show`
 * and `sessions list` both say; `advice` the command that recovers it, if any.
 */
export function problemAdvice(id: string, problem: SessionProblem): { text: string; advice?: Advice } {
  if (problem.kind === 'damaged') {
    return {
      text: `Session ${id} is damaged (${problem.detail}).`,
      advice: { to: 'Resuming it moves the damaged file aside, kept, and continues with what is readable:', run: ['--session-id', id], slash: { name: 'load', args: [id] } },
    };
  }
  if (problem.kind === 'recovered') {
    return {
      text: `Session ${id} was recovered from damage; its ${problem.detail}.`,
      advice: { to: 'See what is kept, restore it or let it go with:', run: ['sessions', 'doctor', id] },
    };
  }
  if (problem.kind === 'newer-version') {
    const needs = problem.needs ? `needs chatkeep ≥ ${problem.needs}` : 'needs a newer chatkeep';
    return { text: `Session ${id} was written by a newer chatkeep (${problem.detail}; ${needs}). Upgrade chatkeep to open it; its files are left untouched.` };
  }
  return { text: `Session ${id} cannot be read (${problem.detail}). Check the permissions of its files; nothing was changed.` };
}

/**
 * ` · 1.2k tokens` (input + output) when a provider reported any, else nothing; then
 * ` · ~$0.02` when every token came from a model in the price table.
 */
export function tokens(usage: Usage | undefined, byModel?: readonly ModelUsage[]): string {
  const total = usage ? usage.inputTokens + usage.outputTokens : 0;
  if (!usage || total === 0) return '';
  const shown = total < 1000 ? String(total) : total < 1e6 ? `${(total / 1000).toFixed(1)}k` : `${(total / 1e6).toFixed(1)}M`;
  const cost = estimateCost(usage, byModel);
  return ` · ${shown} token${total === 1 ? '' : 's'}${cost !== undefined ? ` · ~${formatCost(cost)}` : ''}`;
}

/** The exit line's usage: `Tokens: 1,234 (1,000 in, 234 out) · estimated cost $0.0042`; undefined without tokens. */
export function usageLine(stats: SessionStats): string | undefined {
  if (stats.inputTokens + stats.outputTokens === 0) return undefined;
  const n = groupDigits;
  const cost = estimateCost(stats, stats.byModel);
  const costText = cost !== undefined ? ` · estimated cost ${formatCost(cost)}` : '';
  return `Tokens: ${n(stats.inputTokens + stats.outputTokens)} (${n(stats.inputTokens)} in, ${n(stats.outputTokens)} out)${costText}`;
}

/** The first line of `Resumed session …`. */
export function resumedLine(session: Session, now: Date): string {
  const count = session.messages.length;
  const from = session.resumeReport.forkedFrom;
  if (from) return `New session ${session.id}, ${lineage(from.id, from.at)} (${plural(count, 'message')}, project ${session.project.path})`;
  // Where it was last used: this run's own git context is recorded in the background.
  const last = session.resumeReport.git?.branch;
  const branch = last ? `, branch ${last}` : '';
  return `Resumed session ${session.id} (${plural(count, 'message')}, last active ${relativeTime(session.updatedAt, now)}, project ${session.project.path}${branch})`;
}

/** `forked from X at message 12`: where a fork came from, in listings, `sessions show` and on opening it. */
export function lineage(parentId: string, forkPoint: number | undefined): string {
  return `forked from ${parentId} at message ${forkPoint ?? 0}`;
}

/** Lines telling what resuming recovered or repaired (empty when there is nothing to say). */
export function resumeNotices(session: Session): string[] {
  const report = session.resumeReport;
  const lines: string[] = [];
  if (report.recoveredMessages > 0) {
    lines.push(`Recovered ${plural(report.recoveredMessages, 'message')} from the journal (the last run ended without saving).`);
  } else if (report.wasInterrupted) {
    lines.push('The last run ended without closing this session; nothing was lost.');
  }
  if (report.otherProject !== undefined) lines.push(`This session belongs to project ${report.otherProject}.`);
  lines.push(...report.notices);
  return lines;
}

/** Renders an assistant's Markdown for the terminal (as its live replies are shown). */
export type RenderMarkdown = (source: string) => string;

/** The last few exchanges (`max` messages), each message capped to a few lines; the assistant's rendered with `render`. */
export function transcriptTail(messages: readonly Message[], options: { max?: number; maxLines?: number; render?: RenderMarkdown } = {}): string[] {
  const { max = 6, maxLines = 8, render } = options;
  const shown = messages.slice(-max);
  const lines: string[] = [];
  if (messages.length > shown.length) lines.push(`… ${plural(messages.length - shown.length, 'earlier message')}`);
  for (const message of shown) lines.push(...formatMessage(message, maxLines, render));
  return lines;
}

/**
 * One message as transcript lines: `› ` before the user's text, the assistant's as is (or as
 * `render` draws its Markdown). Control characters are shown as visible stand-ins (visibleText).
 */
export function formatMessage(message: Message, maxLines = Infinity, render?: RenderMarkdown): string[] {
  const text = visibleText(message.content);
  let body = (render && message.role === 'assistant' ? render(text) : text).split('\n');
  if (body.length > maxLines) body = [...body.slice(0, maxLines), `… (${plural(body.length - maxLines, 'more line')})`];
  if (message.interrupted) body[body.length - 1] = `${body[body.length - 1]!.trimEnd()} [interrupted]`;
  if (message.superseded) body[body.length - 1] = `${body[body.length - 1]!.trimEnd()} [superseded by /retry]`;
  if (message.role === 'user') return body.map((line, i) => (i === 0 ? `› ${line}` : `  ${line}`));
  if (message.role === 'tool') return body.map((line) => `  [tool] ${line}`);
  if (message.role === 'system') return body.map((line) => `  [system] ${line}`);
  // Tool calls (imported from other tools) under the text that came with them.
  const calls = (message.toolCalls ?? []).map((call) => `  [tool call ${call.name} ${call.arguments}]`);
  return calls.length > 0 && message.content === '' ? calls : [...body, ...calls];
}

/**
 * When redaction changed what the user typed: one line naming what was replaced and saying that
 * the assistant and the saved session (`persistent`; with --no-persist nothing is saved) got the
 * placeholder; else undefined.
 */
export function redactionNote(typed: string, stored: string, persistent = true): string | undefined {
  if (typed === stored) return undefined;
  const markers = (text: string): Set<string> => new Set([...text.matchAll(/\[REDACTED:[^\]\s]+\]/g)].map((m) => m[0]));
  const before = markers(typed);
  const added = [...markers(stored)].filter((marker) => !before.has(marker));
  if (added.length === 0) return undefined;
  const got = persistent ? 'the assistant and the saved session got' : 'the assistant got';
  return `Replaced what looked like a secret with ${added.join(', ')}: ${got} the placeholder, not what you typed (--no-redact keeps text as typed).`;
}
