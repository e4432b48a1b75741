/**
 * The one place that decides how an error is shown, as vitest's `reportStartError` does (docs/design.md §17).
 * A `ChatkeepError` was written for the user: one line and its exit code. Anything else is a
 * bug: its message, where it came from, and exit code 1.
 */
import { ChatkeepError, withSuggestedCommand } from '../session/errors.js';
import { fileInTheWay, notAFolder } from '../store/file/in-the-way.js';
import { chatkeepCommand } from './invocation.js';
import { visibleText } from '../text/visible-text.js';

/** How an error ends up on screen. */
export interface ErrorReport {
  /** Text to print when the error ends the program (one line for user errors; ends with a newline). */
  text: string;
  /** One line for the REPL, which carries on after it. */
  line: string;
  exitCode: number;
}

/**
 * Describes `err` for the terminal. A message may quote what it read (a damaged file's bytes, a
 * server's words, a title): it is shown through the one neutralizer, so no byte of it acts on
 * the terminal.
 */
export function describeError(err: unknown): ErrorReport {
  const report = rawReport(err);
  return { ...report, text: visibleText(report.text), line: visibleText(report.line) };
}

function rawReport(err: unknown): ErrorReport {
  if (isChatkeepError(err)) return userFacing(withRunnableCommand(err), err.exitCode);
  const disk = diskProblem(err);
  if (disk) return userFacing(disk, 1);
  const message = err instanceof Error ? err.message : String(err);
  const frames = err instanceof Error && err.stack ? err.stack.split('\n').slice(1, 4) : [];
  const origin = frames[0]?.trim();
  return {
    text: `chatkeep: unexpected failure: ${message}\n${frames.length ? `${frames.join('\n')}\n` : ''}This is a bug; please report it with the lines above.\n`,
    line: `chatkeep: unexpected failure: ${message}${origin ? ` (${origin})` : ''}. The session is intact; please report this.`,
    exitCode: 1,
  };
}

/** The message, its suggested command (at its end) in the form that runs where it is printed. */
function withRunnableCommand(err: ChatkeepError): string {
  return withSuggestedCommand(err, chatkeepCommand);
}

/** One line and where the REPL carries on: a user error or a disk problem. */
function userFacing(message: string, exitCode: number): ErrorReport {
  return { text: `chatkeep: ${message}\n`, line: `chatkeep: ${message}`, exitCode };
}

/** The one line the REPL shows for an error it carries on after. */
export function describeReplError(err: unknown): string {
  return describeError(err).line;
}

/**
 * `instanceof` alone misses errors from a second copy of the module (a provider or the library
 * loaded twice), so fall back to the shape: a message, a string code and a numeric exit code.
 */
function isChatkeepError(err: unknown): err is ChatkeepError {
  if (err instanceof ChatkeepError) return true;
  const e = err as { code?: unknown; exitCode?: unknown } | null;
  return err instanceof Error && typeof e?.code === 'string' && typeof e.exitCode === 'number';
}

/** What the disk refused (full, read-only, no permission), for the user to fix; not a bug. */
const DISK_PROBLEMS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'the disk reported an I/O error',
};

/** One line for a system error the user's machine caused, else undefined. */
function diskProblem(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (!(err instanceof Error) || typeof code !== 'string') return undefined;
  const path = (err as { path?: unknown }).path;
  if ((code === 'ENOTDIR' || code === 'EEXIST') && typeof path === 'string') {
    // An EEXIST with no file in the way is not the user's to fix: a bug.
    const file = fileInTheWay(path);
    return file === undefined ? undefined : `Cannot use \`${path}\`: ${notAFolder(file)}; nothing saved before was lost.`;
  }
  if (!(code in DISK_PROBLEMS)) return undefined;
  const where = typeof path === 'string' ? ` \`${path}\`` : '';
  return `Cannot write${where}: ${DISK_PROBLEMS[code]} (${code}). Free some space or fix the permissions, then try again; nothing saved before was lost.`;
}
