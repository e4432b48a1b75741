/**
 * Blocking pickers and confirmations (DESIGN §6): readline-sync, on a TTY only. readline-sync
 * blocks the thread it runs on, so it runs on a worker thread (`picker-worker.ts`): the main
 * event loop goes on meanwhile, and with it the session lock's heartbeat, however long the
 * person takes. Around each call the REPL's own reader steps aside (`rl.pause()`) and the
 * terminal stays in raw mode, so that Ctrl-C reaches the picker as a key.
 */
import { createRequire } from 'node:module';
import type { Interface } from 'node:readline';
import type { Worker } from 'node:worker_threads';
import { PICKER_WORKER_SOURCE, type PickerRequest } from './picker-worker.js';
import type { Prompter } from './types.js';

/**
 * keyInSelect keys items 1-9 then a-z; stopping at `p` keeps `q` free to cancel, like `0`,
 * Esc, Ctrl-C and Ctrl-D.
 */
export const MAX_PICKER_ITEMS = 25;

/** The prompter for a terminal. `getReader` returns the REPL's readline interface once it exists. */
export function createTtyPrompter(input: NodeJS.ReadStream, getReader: () => Interface | undefined): Prompter {
  const around = async <T>(request: PickerRequest, cancelled: T): Promise<T> => {
    const rl = getReader();
    const raw = input.isRaw;
    rl?.pause();
    // Raw from before the question shows until after the answer: in between, a Ctrl-C would
    // otherwise be a SIGINT to the whole process instead of a key that cancels.
    input.setRawMode(true);
    try {
      return ((await ask(request)) as T | undefined) ?? cancelled;
    } finally {
      // readline-sync leaves the terminal cooked; the terminal may be gone (a hang-up meanwhile).
      if (!input.destroyed) input.setRawMode(raw);
      rl?.resume();
    }
  };
  return {
    interactive: true,
    pick(items, question) {
      return around({ kind: 'pick', items: items.slice(0, MAX_PICKER_ITEMS), question }, -1);
    },
    confirm(question) {
      return around({ kind: 'confirm', question }, false);
    },
  };
}

/** The prompter without a terminal: nothing can be asked, so callers say what to pass instead. */
export const nonInteractivePrompter: Prompter = {
  interactive: false,
  pick: () => Promise.resolve(-1),
  confirm: () => Promise.resolve(false),
};

/**
 * Runs one readline-sync call on a worker thread; resolves to its answer, or undefined when
 * it could not be asked or was cut off (the terminal went away): callers treat that as cancel.
 */
async function ask(request: PickerRequest): Promise<number | boolean | undefined> {
  // Loaded on first use: neither is needed to show the first prompt.
  const { Worker: WorkerThread } = await import('node:worker_threads');
  const readlineSync = createRequire(import.meta.url).resolve('readline-sync');
  const worker: Worker = new WorkerThread(PICKER_WORKER_SOURCE, { eval: true, workerData: { readlineSync, request } });
  return new Promise((resolve) => {
    let answer: number | boolean | undefined;
    worker.on('message', (value: number | boolean) => (answer = value));
    worker.on('error', () => undefined);
    worker.on('exit', () => resolve(answer));
  });
}
