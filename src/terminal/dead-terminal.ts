/**
 * A process whose terminal went away aborts at exit (SIGABRT, or SIGSEGV as Node's assertion
 * prints its stack while the process ends): Node puts the terminal's modes back as it ends
 * (node::ResetStdio), and that fails on a dead terminal (EIO). It skips descriptors that are
 * closed, so the dead ones are, once nothing more can be written to them.
 */
import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** The standard descriptors that are terminals now. */
export const terminalDescriptors = (): number[] => [0, 1, 2].filter((fd) => isatty(fd));

/**
 * Closes those of `ttys` that are terminals no more. Only as the process ends ('exit', or just
 * before `process.exit`): a descriptor closed earlier could be reused by a file the program opens
 * next, and its writes meant for the terminal would land there.
 */
export function closeDeadTerminals(ttys: readonly number[]): void {
  closeAll(ttys.filter((fd) => !isatty(fd)));
}

let closingAtExit = false;

/**
 * After a hang-up: closes every one of `ttys` as the process exits, dead or still answering. A
 * terminal told to hang up may end only a moment later (another process still holds its other
 * end: a terminal's tabs forked with it, a second program of the same window), after a check of it
 * at exit and before Node's reset of its modes, which then aborts the process that had saved
 * everything (docs/internals.md, "A terminal that ends while chatkeep leaves"). A live one loses
 * nothing by it: its raw mode was put back as its reader closed. Once per process.
 */
export function closeTerminalsAtExit(ttys: readonly number[]): void {
  if (closingAtExit || ttys.length === 0) return;
  closingAtExit = true;
  process.once('exit', () => closeAll(ttys));
}

function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}
