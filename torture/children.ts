/**
 * Child processes that use the compiled library (`dist/src/index.js`): each runs a small ES
 * module written into the torture root, talks over stdin/stdout lines, and can be awaited.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LIBRARY, onHost } from './proc.js';

/** Writes `code` as `<root>/<name>.mjs`, with `LIB` bound to the compiled library's URL. */
export function writeScript(root: string, name: string, code: string): string {
  const file = join(root, `${name}.mjs`);
  writeFileSync(file, `const LIB = ${JSON.stringify(pathToFileURL(LIBRARY).href)};\n${code}`);
  return file;
}

/** A running child whose stdout lines can be awaited in order. */
export interface LineChild {
  readonly pid: number;
  readonly proc: ChildProcessWithoutNullStreams;
  send(line: string): void;
  /** The next stdout line not yet taken. */
  next(timeoutMs?: number): Promise<string>;
  /** The next stdout line already received, if any (does not wait). */
  pending(): string | undefined;
  stderr(): string;
  readonly exited: Promise<number>;
}

/** Starts `node script ...args` (on this host, or as machine `host`: see `onHost`). */
export function startChild(script: string, args: string[], env: Record<string, string> = {}, host?: string): LineChild {
  const [file, argv] = onHost(host, [process.execPath, script, ...args]);
  const proc = spawn(file, argv, { env: { ...process.env, ...env }, stdio: 'pipe' });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let buffer = '';
  let err = '';
  let ended = false;
  proc.stdin.on('error', () => undefined);
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number>((resolve) =>
    proc.on('close', (code) => {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
      resolve(code ?? 128);
    }),
  );
  return {
    pid: proc.pid ?? -1,
    proc,
    send: (line) => {
      if (!proc.stdin.destroyed) proc.stdin.write(`${line}\n`);
    },
    stderr: () => err,
    exited,
    pending: () => lines.shift(),
    next(timeoutMs = 30_000) {
      const ready = lines.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (ended) return Promise.reject(new Error(`child ${proc.pid} ended; stderr: ${err.slice(-500)}`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`child ${proc.pid} said nothing for ${timeoutMs} ms; stderr: ${err.slice(-500)}`)), timeoutMs);
        waiting.push((line) => {
          clearTimeout(timer);
          if (line === undefined) reject(new Error(`child ${proc.pid} ended; stderr: ${err.slice(-500)}`));
          else resolve(line);
        });
      });
    },
  };
}
