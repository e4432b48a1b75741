/**
 * Text shown for sessions: listing rows, relative times, the tail of a transcript.
 * Pure functions of their inputs (the clock is passed in).
 */
import { estimateCost, formatCost } from '../providers/cost.js';
import { commandText } from '../session/errors.js';
import type { Message, ModelUsage, Session, SessionProblem, SessionStats, SessionSummary } from '../session/types.js';
import { layoutTable, loadTableWidths, type Column } from './table.js';
import { groupDigits } from './digits.js';

type FormatDistance = typeof import('date-fns/formatDistance').formatDistance;
let formatDistance: FormatDistance | undefined;

/**
 * Loads date-fns' `formatDistance` (with its locale, ~20 ms) and string-width for tables: after
 * the first prompt for a new session, before anything is listed or resumed. Idempotent.
 */
export async function loadFormatting(): Promise<void> {
  await Promise.all([loadTableWidths(), loadRelativeTime()]);
}

/**
 * date-fns for relative times only: the resume line needs it, tables do not come into it. Kept
 * apart so that string-width (tables) stays off the way to the first prompt and the first request.
 */
export async function loadRelativeTime(): Promise<void> {
  formatDistance ??= (await import('date-fns/formatDistance')).formatDistance;
}

/** `5 minutes ago` (date-fns `formatDistance`); a time slightly ahead of the clock counts as now. */
export function relativeTime(date: Date, now: Date): string {
  if (!formatDistance) throw new Error('relativeTime() called before loadFormatting()');
  return formatDistance(date.getTime() > now.getTime() ? now : date, now, { addSuffix: true });
}

/** `1 message`, `3 messages`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Columns a title may take in a listing that is not on a terminal (a pipe, a file). */
export const TITLE_COLUMNS = 60;

/** keyInSelect shows a picker row after `[1] `: the room it takes from the terminal's width. */
const PICKER_KEY_WIDTH = 4;

/** The width listing rows may take on `screen` (a picker's rows lose the room of its keys); undefined when piped. */
export function rowWidth(screen: { columns(): number | undefined }, picker: boolean): number | undefined {
  const columns = screen.columns();
  return columns === undefined ? undefined : columns - (picker ? PICKER_KEY_WIDTH : 0);
}

/** How listing rows are laid out: marker and ID, last active, messages, status, (branch,) title (cut with `…`). */
const ROW_COLUMNS: readonly Column[] = [{}, {}, { align: 'right' }, {}, { flex: { max: TITLE_COLUMNS, min: 10 } }];

/**
 * Listing rows, one line each, columns aligned by display width: a `*` marks the current
 * session; rows of another project than `projectPath` name it; the git branch, when any row has
 * one, comes after the status. The row text of every table and picker of sessions. `width` is
 * the terminal's (the title takes what is left, at most {@link TITLE_COLUMNS} elsewhere).
 */
export function formatRows(
  rows: readonly SessionSummary[],
  options: { currentId?: string; projectPath?: string; now: Date; width?: number },
): string[] {
  const branches = rows.some((row) => row.branch !== undefined);
  const forks = rows.some((row) => row.parentId !== undefined);
  const cells = rows.map((row) => [
    `${row.id === options.currentId ? '*' : ' '} ${row.id}`,
    relativeTime(row.updatedAt, options.now),
    countKnown(row.problem) ? plural(row.messageCount, 'message') + tokens(row.usage, row.usageByModel) : '? messages',
    row.problem ? problemLabel(row.problem) : row.status,
    ...(branches ? [row.branch ?? ''] : []),
    ...(forks ? [row.parentId !== undefined ? lineage(row.parentId, row.forkPoint) : ''] : []),
    (row.title ?? '(untitled)') + (options.projectPath !== undefined && row.project !== options.projectPath ? `  [${row.project}]` : ''),
  ]);
  // Optional columns (branch, lineage) go between the status and the title, only when some row has one.
  const optional = Number(branches) + Number(forks);
  const layout: Column[] = [...ROW_COLUMNS.slice(0, 4), ...Array.from({ length: optional }, (): Column => ({})), ...ROW_COLUMNS.slice(4)];
  const columns = options.width === undefined ? layout : layout.map((c) => (c.flex ? { ...c, flex: { ...c.flex, max: Infinity } } : c));
  return layoutTable(cells, columns, { width: options.width });
}

/** False when the files could not be read at all, so no message count is known. */
export function countKnown(problem: SessionProblem | undefined): boolean {
  return problem === undefined || problem.kind === 'damaged';
}

/** What a listing shows instead of the status: `damaged`, `newer version (needs chatkeep ≥ 0.3.0)`, `unreadable`. */
export function problemLabel(problem: SessionProblem): string {
  if (problem.kind === 'newer-version') return `newer version${problem.needs ? ` (needs chatkeep ≥ ${problem.needs})` : ''}`;
  return problem.kind;
}

/**
 * What is wrong with a session's files and how to recover, in one line: what `sessions show`
 * and `sessions list` both say. Ends with the command to run, if any (see `commandText`).
 */
export function problemAdvice(id: string, problem: SessionProblem): { text: string; suggests?: string[] } {
  if (problem.kind === 'damaged') {
    const resume = ['--session-id', id];
    return {
      text: `Session ${id} is damaged (${problem.detail}). Resuming it moves the damaged file aside, kept, and continues with what is readable: ${commandText(resume)}`,
      suggests: resume,
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
export function tokens(usage: { inputTokens: number; outputTokens: number } | undefined, byModel?: readonly ModelUsage[]): string {
  const total = usage ? usage.inputTokens + usage.outputTokens : 0;
  if (!usage || total === 0) return '';
  const shown = total < 1000 ? String(total) : total < 1e6 ? `${(total / 1000).toFixed(1)}k` : `${(total / 1e6).toFixed(1)}M`;
  const cost = estimateCost(usage, byModel);
  return ` · ${shown} tokens${cost !== undefined ? ` · ~${formatCost(cost)}` : ''}`;
}

/** The exit line's usage: `Tokens: 1,234 (1,000 in, 234 out) · estimated cost $0.0042`; undefined without tokens. */
export function usageLine(stats: SessionStats): string | undefined {
  if (stats.inputTokens + stats.outputTokens === 0) return undefined;
  const n = groupDigits;
  const cost = estimateCost(stats, stats.byModel);
  const costText = cost !== undefined ? ` · estimated cost ${formatCost(cost)}` : '';
  return `Tokens: ${n(stats.inputTokens + stats.outputTokens)} (${n(stats.inputTokens)} in, ${n(stats.outputTokens)} out)${costText}`;
}

/** The first line of `Resumed session …` (DESIGN §1). */
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

/** The last few exchanges (`max` messages), each message capped to a few lines. */
export function transcriptTail(messages: readonly Message[], max = 6, maxLines = 8): string[] {
  const shown = messages.slice(-max);
  const lines: string[] = [];
  if (messages.length > shown.length) lines.push(`… ${plural(messages.length - shown.length, 'earlier message')}`);
  for (const message of shown) lines.push(...formatMessage(message, maxLines));
  return lines;
}

/** One message as transcript lines: `› ` before the user's text, the assistant's as is. */
export function formatMessage(message: Message, maxLines = Infinity): string[] {
  let body = message.content.split('\n');
  if (body.length > maxLines) body = [...body.slice(0, maxLines), `… (${plural(body.length - maxLines, 'more line')})`];
  if (message.interrupted) body[body.length - 1] = `${body[body.length - 1]!.trimEnd()} [interrupted]`;
  if (message.superseded) body[body.length - 1] = `${body[body.length - 1]!.trimEnd()} [superseded by /retry]`;
  if (message.role === 'user') return body.map((line, i) => (i === 0 ? `› ${line}` : `  ${line}`));
  if (message.role === 'tool') return body.map((line) => `  [tool] ${line}`);
  // Tool calls (imported from other tools) under the text that came with them.
  const calls = (message.toolCalls ?? []).map((call) => `  [tool call ${call.name} ${call.arguments}]`);
  return calls.length > 0 && message.content === '' ? calls : [...body, ...calls];
}

/**
 * When redaction changed what the user typed: one line naming what was replaced and saying that
 * the assistant and the saved session got the placeholder; else undefined.
 */
export function redactionNote(typed: string, stored: string): string | undefined {
  if (typed === stored) return undefined;
  const markers = (text: string): Set<string> => new Set([...text.matchAll(/\[REDACTED:[^\]\s]+\]/g)].map((m) => m[0]));
  const before = markers(typed);
  const added = [...markers(stored)].filter((marker) => !before.has(marker));
  if (added.length === 0) return undefined;
  return `Replaced what looked like a secret with ${added.join(', ')}: the assistant and the saved session got the placeholder, not what you typed (--no-redact keeps text as typed).`;
}
