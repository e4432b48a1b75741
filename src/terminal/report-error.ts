/**
 * What an error comes to, and how the CLI shows it (as vitest's `reportStartError`; docs/design.md §17). A
 * `ChatkeepError` was written for the user: its message, its advice in the CLI's words, its exit
 * code. A disk the user's machine refused is the user's to fix. Anything else is a bug: its
 * message, where it came from, and exit code 1. `errorFacts` is the first half, which every host
 * shares; each host words the facts itself (the CLI here, a REPL host in `repl/error-line.ts`).
 */
import { ChatkeepError, type Advice } from '../session/api/errors.js';
import { fileInTheWay, notAFolder } from '../store/file/in-the-way.js';
import { visibleText } from '../text/visible-text.js';

/** What an error says, before any host words it. */
export interface ErrorFacts {
  message: string;
  advice?: Advice;
  exitCode: number;
  /** A bug: where it came from (the first frames of its stack). */
  bug?: { frames: string[] };
}

/** What `err` comes to: a user error, a disk problem, or a bug. */
export function errorFacts(err: unknown): ErrorFacts {
  if (isChatkeepError(err)) return { message: err.message, exitCode: err.exitCode, ...(err.advice ? { advice: err.advice } : {}) };
  const disk = diskProblem(err);
  if (disk) return { message: disk, exitCode: 1 };
  const message = err instanceof Error ? err.message : String(err);
  return { message, exitCode: 1, bug: { frames: err instanceof Error && err.stack ? err.stack.split('\n').slice(1, 4) : [] } };
}

/** How an error ends up on the CLI's screen. */
export interface ErrorReport {
  /** Text to print when the error ends the program (one line for user errors; ends with a newline). */
  text: string;
  /** One line for a run that carries on after it. */
  line: string;
  exitCode: number;
}

/**
 * Describes `err` for the CLI, `command` writing the program's command line for an advice's
 * subcommand (`chatkeep sessions list --all`, as it runs where it is printed).
 * A message may quote what it read (a damaged file's bytes, a server's words, a title): it is
 * shown through the one neutralizer, so no byte of it acts on the terminal.
 */
export function describeError(err: unknown, command: (args: readonly string[]) => string): ErrorReport {
  const report = rawReport(err, command);
  return { ...report, text: visibleText(report.text), line: visibleText(report.line) };
}

function rawReport(err: unknown, command: (args: readonly string[]) => string): ErrorReport {
  const facts = errorFacts(err);
  if (facts.bug) {
    const { frames } = facts.bug;
    const origin = frames[0]?.trim();
    return {
      text: `chatkeep: unexpected failure: ${facts.message}\n${frames.length ? `${frames.join('\n')}\n` : ''}This is a bug; please report it with the lines above.\n`,
      line: `chatkeep: unexpected failure: ${facts.message}${origin ? ` (${origin})` : ''}. The session is intact; please report this.`,
      exitCode: 1,
    };
  }
  const advice = facts.advice?.run ? ` ${facts.advice.to} ${command(facts.advice.run)}` : '';
  const line = `chatkeep: ${facts.message}${advice}`;
  return { text: `${line}\n`, line, exitCode: facts.exitCode };
}

/** A bug's one line for a host that carries on after it (no program's name: the host may add its own). */
export function bugLine(facts: ErrorFacts): string {
  const origin = facts.bug?.frames[0]?.trim();
  return `unexpected failure: ${facts.message}${origin ? ` (${origin})` : ''}. The session is intact; please report this.`;
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
