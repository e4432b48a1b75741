/**
 * Blocking pickers and confirmations (DESIGN §6): readline-sync, on a TTY only. It reads
 * `/dev/tty` and blocks the event loop, so around each call the REPL's own reader steps
 * aside: `rl.pause()`, raw mode off, the call, raw mode back on, `rl.resume()`; otherwise
 * the REPL stops reading or echoes twice.
 */
import { createRequire } from 'node:module';
import type { Interface } from 'node:readline';
import type * as ReadlineSync from 'readline-sync';
import type { Prompter } from './types.js';

/** keyInSelect keys items 1-9 then a-z. */
const MAX_ITEMS = 35;

/** The prompter for a terminal. `getReader` returns the REPL's readline interface once it exists. */
export function createTtyPrompter(input: NodeJS.ReadStream, getReader: () => Interface | undefined): Prompter {
  let lib: typeof ReadlineSync | undefined;
  const around = <T>(call: (rs: typeof ReadlineSync) => T): T => {
    // Loaded on first use: it is not needed to show the first prompt.
    lib ??= createRequire(import.meta.url)('readline-sync') as typeof ReadlineSync;
    const rl = getReader();
    const raw = input.isTTY && input.isRaw;
    rl?.pause();
    if (raw) input.setRawMode(false);
    try {
      return call(lib);
    } finally {
      if (raw) input.setRawMode(true);
      rl?.resume();
    }
  };
  return {
    interactive: true,
    pick(items, question) {
      return around((rs) => rs.keyInSelect(items.slice(0, MAX_ITEMS), question, { cancel: 'Cancel' }));
    },
    confirm(question) {
      return around((rs) => rs.keyInYN(question) === true);
    },
  };
}

/** The prompter without a terminal: nothing can be asked, so callers say what to pass instead. */
export const nonInteractivePrompter: Prompter = {
  interactive: false,
  pick: () => -1,
  confirm: () => false,
};
