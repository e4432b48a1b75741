/**
 * A process whose terminal went away aborts at exit (SIGABRT, exit 134): Node puts the terminal's
 * modes back as it ends (node::ResetStdio), and that fails on a dead terminal (EIO). It skips
 * descriptors that are closed, so the dead ones are, once nothing more can be written to them.
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
  for (const fd of ttys) {
    if (isatty(fd)) continue;
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}
