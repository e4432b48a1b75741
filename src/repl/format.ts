/**
 * Text shown for sessions: listing rows, relative times, the tail of a transcript.
 * Pure functions of their inputs (the clock is passed in).
 */
import { estimateCost, formatCost } from '../providers/cost.js';
import type { Message, ModelUsage, Session, SessionStats, SessionSummary } from '../session/types.js';

type FormatDistance = typeof import('date-fns/formatDistance').formatDistance;
let formatDistance: FormatDistance | undefined;

/**
 * Loads date-fns' `formatDistance` (with its locale, ~20 ms): after the first prompt for a new
 * session, before anything is listed or resumed. Idempotent.
 */
export async function loadFormatting(): Promise<void> {
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

/**
 * Listing rows, columns aligned: a `*` marks the current session; rows of another project
 * than `projectPath` name it; the git branch, when any row has one, comes after the status.
 */
export function formatRows(rows: readonly SessionSummary[], options: { currentId?: string; projectPath?: string; now: Date }): string[] {
  const branches = rows.some((row) => row.branch !== undefined);
  const statusWidth = Math.max(...rows.map((row) => row.status.length));
  const cells = rows.map((row) => [
    row.id === options.currentId ? '*' : ' ',
    row.id,
    relativeTime(row.updatedAt, options.now),
    plural(row.messageCount, 'message') + tokens(row.usage, row.usageByModel),
    branches ? `${row.status.padEnd(statusWidth)}  ${row.branch ?? ''}` : row.status,
    (row.title ?? '(untitled)') + (options.projectPath !== undefined && row.project !== options.projectPath ? `  [${row.project}]` : ''),
  ]);
  const widths = [1, 2, 3, 4].map((col) => Math.max(...cells.map((c) => c[col]!.length)));
  return cells.map((c) =>
    `${c[0]} ${[c[1]!.padEnd(widths[0]!), c[2]!.padEnd(widths[1]!), c[3]!.padStart(widths[2]!), c[4]!.padEnd(widths[3]!), c[5]].join('  ')}`.trimEnd(),
  );
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
  const n = (x: number): string => x.toLocaleString('en-US');
  const cost = estimateCost(stats, stats.byModel);
  const costText = cost !== undefined ? ` · estimated cost ${formatCost(cost)}` : '';
  return `Tokens: ${n(stats.inputTokens + stats.outputTokens)} (${n(stats.inputTokens)} in, ${n(stats.outputTokens)} out)${costText}`;
}

/** The first line of `Resumed session …` (DESIGN §1). */
export function resumedLine(session: Session, now: Date): string {
  const count = session.messages.length;
  const branch = session.git?.branch ? `, branch ${session.git.branch}` : '';
  return `Resumed session ${session.id} (${plural(count, 'message')}, last active ${relativeTime(session.updatedAt, now)}, project ${session.project.path}${branch})`;
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
  if (message.role === 'user') return body.map((line, i) => (i === 0 ? `› ${line}` : `  ${line}`));
  if (message.role === 'tool') return body.map((line) => `  [tool] ${line}`);
  return body;
}
