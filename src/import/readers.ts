/**
 * Where `sessions import` reads and parses the files: on reading threads when there are many
 * files and a core to spare, else in this thread. Reading and parsing is as much work as the
 * rest of the import together (storing, redacting, encoding), and is the part that needs
 * nothing but the file: on a second core it runs beside the rest (1,000 Claude Code sessions:
 * see docs/internals.md). Answers are the same either way (read-peer.ts does the work).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { Candidate } from './discover.js';
import { readPeerFile, type TitleCache } from './read-peer.js';
import { failureError, type ReadAnswer, type ReadRequest } from './read-protocol.js';
import type { PeerConversation, PeerTool } from './types.js';

export interface PeerReaders {
  /** `file` as a conversation (undefined: unchanged since `since`); rejects as readPeerFile does. */
  read(file: Candidate): Promise<PeerConversation | undefined>;
  /** Stops the reading threads (reads still pending are refused). */
  close(): Promise<void>;
}

/** Fewer files than this are read here: a thread's start (~30 ms) would cost more than it saves. */
const THREADS_FROM = 32;
/** Reading threads at most, however many cores. */
const MOST_THREADS = 4;

/** The reading thread's script: beside this module, in tsc's output and in the CLI's bundle alike. */
const SCRIPT = new URL('./read-worker.js', import.meta.url);

export async function peerReaders(tool: PeerTool, since: Date | undefined, files: number): Promise<PeerReaders> {
  const threads = Math.min(MOST_THREADS, availableParallelism() - 1, Math.floor(files / THREADS_FROM));
  // Run from the TypeScript source (the tests), there is no script to start: read here.
  if (threads < 1 || !existsSync(fileURLToPath(SCRIPT))) return here(tool, since);
  const { Worker: WorkerThread } = await import('node:worker_threads');
  return pool(tool, since, Array.from({ length: threads }, () => new WorkerThread(SCRIPT)));
}

function here(tool: PeerTool, since: Date | undefined): PeerReaders {
  const titles: TitleCache = new Map();
  return { read: (file) => readPeerFile(tool, file, since, titles), close: async () => undefined };
}

function pool(tool: PeerTool, since: Date | undefined, workers: Worker[]): PeerReaders {
  const pending = new Map<number, { resolve: (c: PeerConversation | undefined) => void; reject: (err: Error) => void }>();
  let next = 0;
  let broken: Error | undefined;
  let closing = false;
  const refuseAll = (err: Error): void => {
    broken ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  for (const worker of workers) {
    worker.on('message', (answer: ReadAnswer) => {
      const p = pending.get(answer.n);
      if (!p) return;
      pending.delete(answer.n);
      if ('failure' in answer) p.reject(failureError(answer.failure));
      else p.resolve(answer.conversation);
    });
    // A thread that dies takes its reads with it: a bug, or the process running out of memory.
    worker.on('error', (err) => refuseAll(err));
    worker.on('exit', (code) => {
      if (code !== 0 && !closing) refuseAll(new Error(`an import reading thread stopped (exit code ${code})`));
    });
  }
  return {
    read(file) {
      if (broken) return Promise.reject(broken);
      const n = next++;
      return new Promise((resolve, reject) => {
        pending.set(n, { resolve, reject });
        workers[n % workers.length]!.postMessage({ n, tool, file, since } satisfies ReadRequest);
      });
    },
    async close() {
      closing = true;
      refuseAll(new Error('the import reading threads were stopped'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
