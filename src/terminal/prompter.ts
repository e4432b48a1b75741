/**
 * The one blocking question left (docs/design.md §11: nothing may stop the lock's heartbeat): empty-trash's yes/no, with readline-sync, on a
 * terminal only. readline-sync blocks the thread it runs on, so it runs on a worker thread
 * (`confirm-worker.ts`), which also turns Ctrl-C, Ctrl-D, Esc and `q` into "no"; the terminal
 * stays in raw mode meanwhile, so that Ctrl-C reaches it as a key. Choosing a session is the
 * session browser's (src/browser/), which never blocks.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { CONFIRM_WORKER_SOURCE } from './confirm-worker.js';

/** Asks `question` on the terminal `input`; resolves to true for yes (a cancel key, or a terminal gone, means no). */
export async function confirmOnTerminal(input: NodeJS.ReadStream, question: string): Promise<boolean> {
  const raw = input.isRaw;
  // Raw from before the question shows until after the answer: in between, a Ctrl-C would
  // otherwise be a SIGINT to the whole process instead of a key that answers no.
  input.setRawMode(true);
  try {
    return (await ask(question)) === true;
  } finally {
    // readline-sync leaves the terminal cooked; the terminal may be gone (a hang-up meanwhile).
    if (!input.destroyed) input.setRawMode(raw);
  }
}

/** Runs readline-sync's keyInYN on a worker thread; undefined when it was cut off (the terminal went away). */
async function ask(question: string): Promise<boolean | undefined> {
  // Loaded on first use: neither is needed to show the first prompt.
  const { Worker: WorkerThread } = await import('node:worker_threads');
  const readlineSync = createRequire(import.meta.url).resolve('readline-sync');
  const worker: Worker = new WorkerThread(CONFIRM_WORKER_SOURCE, { eval: true, workerData: { readlineSync, question } });
  return new Promise((resolve) => {
    let answer: boolean | undefined;
    worker.on('message', (value: boolean) => (answer = value));
    worker.on('error', () => undefined);
    worker.on('exit', () => resolve(answer));
  });
}
