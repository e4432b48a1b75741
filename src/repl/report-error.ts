/**
 * The one place that decides how an error is shown (STYLE: vitest's `reportStartError`).
 * A `ChatkeepError` was written for the user: one line and its exit code. Anything else is a
 * bug: its message, where it came from, and exit code 1.
 */
import { ChatkeepError } from '../session/errors.js';

/** How an error ends up on screen. */
export interface ErrorReport {
  /** Text to print (one line for user errors; ends with a newline). */
  text: string;
  exitCode: number;
}

/** Describes `err` for the terminal. */
export function describeError(err: unknown): ErrorReport {
  if (isChatkeepError(err)) return { text: `chatkeep: ${err.message}\n`, exitCode: err.exitCode };
  const disk = diskProblem(err);
  if (disk) return { text: `chatkeep: ${disk}\n`, exitCode: 1 };
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error && err.stack ? err.stack.split('\n').slice(1, 4).join('\n') : '';
  return {
    text: `chatkeep: unexpected failure: ${message}\n${stack ? `${stack}\n` : ''}This is a bug; please report it with the lines above.\n`,
    exitCode: 1,
  };
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
export function diskProblem(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (!(err instanceof Error) || typeof code !== 'string' || !(code in DISK_PROBLEMS)) return undefined;
  const path = (err as { path?: unknown }).path;
  const where = typeof path === 'string' ? ` \`${path}\`` : '';
  return `Cannot write${where}: ${DISK_PROBLEMS[code]} (${code}). Free some space or fix the permissions, then try again; nothing saved before was lost.`;
}
