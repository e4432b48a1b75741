/**
 * syncfs(2) for a batch of new files: one flush of the file system that holds them, where an
 * fsync per file makes the journal commit once per file (writing 500 files of 60 KB measured
 * 2.1 s with an fsync each, 0.75 s with the fsyncs side by side, 0.11 s with one syncfs). Node
 * has no binding for it, so coreutils' `sync --file-system` (Linux) runs it; where that is
 * missing or refuses, the caller fsyncs each file and directory instead.
 *
 * One shell, started at the first flush, runs `sync` for each path it is sent: starting a
 * process from this one costs its thread 5–10 ms each time (the whole address space is copied
 * for the fork), which an import of 1,000 sessions paid at every one of its ~20 batches. The
 * shell ends when this process does (its input closes), and never keeps it running.
 */
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';

let unavailable = process.platform !== 'linux';

interface Flusher {
  /** The shell's input and output: sockets of this process (pipes). */
  input: Socket;
  output: Socket;
  /** Callers waiting for an answer, in the order their paths were sent. */
  waiting: ((ran: boolean | undefined) => void)[];
}

let flusher: Flusher | undefined;

const LOOP = 'while IFS= read -r p; do if sync --file-system -- "$p" 2>/dev/null; then echo 0; else echo 1; fi; done';

/** Flushes the file system holding `path`; false (having done nothing) where that cannot be done here. */
export async function syncFileSystem(path: string): Promise<boolean> {
  if (unavailable || path.includes('\n')) return false;
  const answer = await ask(path);
  // A `sync` without --file-system (busybox, BSD), or a failure: the caller's fsyncs say which
  // file failed; not tried again in this process. The shell gone (undefined): the caller's
  // fsyncs do this batch, and the next flush starts another.
  if (answer === false) unavailable = true;
  return answer === true;
}

function ask(path: string): Promise<boolean | undefined> {
  const f = (flusher ??= start());
  return new Promise((resolve) => {
    f.waiting.push(resolve);
    // Waiting keeps this process running, as any file system call does; idle, the shell does not.
    f.output.ref();
    f.input.write(`${path}\n`);
  });
}

function start(): Flusher {
  // Loaded here, by an import's first batch: node:child_process costs every start ~1 ms of CPU.
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const child = spawn('sh', ['-c', LOOP], { stdio: ['pipe', 'pipe', 'ignore'] });
  const f: Flusher = { input: child.stdin as Socket, output: child.stdout as Socket, waiting: [] };
  child.unref();
  f.output.unref();
  f.input.unref();
  let pending = '';
  f.output.setEncoding('utf8');
  f.output.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      f.waiting.shift()?.(line === '0');
    }
    if (f.waiting.length === 0) f.output.unref();
  });
  const gone = (): void => {
    if (flusher === f) flusher = undefined;
    for (const resolve of f.waiting.splice(0)) resolve(undefined);
  };
  child.on('error', (err: NodeJS.ErrnoException) => {
    // No shell to start: not tried again.
    if (err.code === 'ENOENT') unavailable = true;
    gone();
  });
  child.on('exit', gone);
  f.input.on('error', gone);
  return f;
}
