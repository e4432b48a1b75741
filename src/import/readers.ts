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
  /** The `i`th file as a conversation (undefined: unchanged since `since`); rejects as readPeerFile does. */
  read(i: number): Promise<PeerConversation | undefined>;
  /** Reads `file` again, as it is now (a conversation imported before that may have grown). */
  again(file: Candidate): Promise<PeerConversation | undefined>;
  /** Stops the reading threads (reads still pending are refused). */
  close(): Promise<void>;
}

/** Fewer files than this are read here: a thread's start (~30 ms) would cost more than it saves. */
const THREADS_FROM = 32;
/** Reading threads at most, however many cores. */
const MOST_THREADS = 4;
/**
 * Files read ahead of the one asked for. The import asks in order, but in bursts: when a batch
 * is committed, every file waiting on it asks for its next at once, and without files already
 * read the storing thread would wait for the reading ones (a third of the time, measured).
 */
const AHEAD = 64;

/** The reading thread's script: beside this module, in tsc's output and in the CLI's bundle alike. */
const SCRIPT = new URL('./read-worker.js', import.meta.url);

export async function peerReaders(tool: PeerTool, since: Date | undefined, files: readonly Candidate[]): Promise<PeerReaders> {
  const threads = Math.min(MOST_THREADS, availableParallelism() - 1, Math.floor(files.length / THREADS_FROM));
  // Run from the TypeScript source (the tests), there is no script to start: read here.
  if (threads < 1 || !existsSync(fileURLToPath(SCRIPT))) return here(tool, since, files);
  const { Worker: WorkerThread } = await import('node:worker_threads');
  return pool(tool, since, files, Array.from({ length: threads }, () => new WorkerThread(SCRIPT)));
}

function here(tool: PeerTool, since: Date | undefined, files: readonly Candidate[]): PeerReaders {
  const titles: TitleCache = new Map();
  return {
    read: async (i) => readPeerFile(tool, files[i]!, since, titles),
    again: async (file) => readPeerFile(tool, file, since, titles),
    close: async () => undefined,
  };
}

type Answer = PeerConversation | undefined;

function pool(tool: PeerTool, since: Date | undefined, files: readonly Candidate[], workers: Worker[]): PeerReaders {
  /** How each file sent to a thread is settled, until its answer comes. */
  const waiting = new Map<number, { resolve: (c: Answer) => void; reject: (err: Error) => void }>();
  /** Each file sent and not yet asked for (a file read ahead, answered or not). */
  const ahead = new Map<number, Promise<Answer>>();
  let sent = 0;
  let again = 0;
  let broken: Error | undefined;
  let closing = false;
  const refuseAll = (err: Error): void => {
    broken ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  /** Sends file `n` (a negative `n`: a file read again) to a thread. */
  const post = (n: number, file: Candidate): Promise<Answer> => {
    const answer = new Promise<Answer>((resolve, reject) => waiting.set(n, { resolve, reject }));
    // Read ahead, it may fail before it is asked for: its failure is the asker's, not unhandled.
    answer.catch(() => undefined);
    workers[Math.abs(n) % workers.length]!.postMessage({ n, tool, file, since } satisfies ReadRequest);
    return answer;
  };
  for (const worker of workers) {
    worker.on('message', (answer: ReadAnswer) => {
      const w = waiting.get(answer.n);
      waiting.delete(answer.n);
      if ('failure' in answer) w?.reject(failureError(answer.failure));
      else w?.resolve(answer.conversation);
    });
    // A thread that dies takes its reads with it: a bug, or the process running out of memory.
    worker.on('error', (err) => refuseAll(err));
    worker.on('exit', (code) => {
      if (code !== 0 && !closing) refuseAll(new Error(`an import reading thread stopped (exit code ${code})`));
    });
  }
  return {
    read(i) {
      if (broken) return Promise.reject(broken);
      for (; sent < Math.min(i + 1 + AHEAD, files.length); sent++) ahead.set(sent, post(sent, files[sent]!));
      const answer = ahead.get(i);
      ahead.delete(i);
      return answer ?? Promise.reject(new Error(`import: file ${i} was asked for twice`));
    },
    again(file) {
      return broken ? Promise.reject(broken) : post(-++again, file);
    },
    async close() {
      closing = true;
      refuseAll(new Error('the import reading threads were stopped'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
