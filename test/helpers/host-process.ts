/**
 * A host program run as a child process (`node script args…`) that a test talks to through
 * stdin and reads line by line, and can kill with SIGKILL as a crash would. Killed when the
 * test finishes, if it still runs.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export interface HostProcess {
  /** Every line printed on stdout so far. */
  lines: string[];
  /** Resolves with the first line (from the `from`-th on) that starts with `prefix`; rejects if the child exits first. */
  line(prefix: string, from?: number): Promise<string>;
  send(text: string): void;
  kill9(): Promise<void>;
  /** Resolves with the exit code once stdin is closed and the child has exited. */
  end(): Promise<number | null>;
}

/** `env`: variables added to this process's environment for the child. */
export function startHost(script: string, args: string[], env: Record<string, string> = {}): HostProcess {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    resolve(code);
    for (const wake of waiting) wake();
  }));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiting) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    lines,
    line: (prefix, from = 0) =>
      new Promise((resolve, reject) => {
        const look = (): void => {
          const found = lines.slice(from).find((l) => l.startsWith(prefix));
          if (found !== undefined) {
            waiting.delete(look);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiting.delete(look);
            reject(new Error(`The host exited before printing "${prefix}":\n${lines.join('\n')}\n${stderr}`));
          }
        };
        waiting.add(look);
        look();
      }),
    send: (text) => child.stdin.write(text),
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    end: () => {
      child.stdin.end();
      return exited;
    },
  };
}
