/**
 * How the REPL shows an error and carries on: the one line a user error was written as, or,
 * for a bug, its message and where it came from.
 */
import { describeError, diskProblem } from './report-error.js';

/** One line (two for a bug: its origin) for an error that does not end the REPL. */
export function describeReplError(err: unknown): string {
  const report = describeError(err);
  if (diskProblem(err)) return report.text.trimEnd();
  if (report.exitCode !== 1 || !(err instanceof Error) || hasCode(err)) return report.text.split('\n')[0]!;
  const origin = err.stack?.split('\n')[1]?.trim();
  return `chatkeep: unexpected failure: ${err.message}${origin ? ` (${origin})` : ''}. The session is intact; please report this.`;
}

function hasCode(err: Error): boolean {
  return typeof (err as { exitCode?: unknown }).exitCode === 'number';
}
