/**
 * Drives the real `bin/chatkeep.js` through pipes, outside vitest (the test helpers in
 * `test/helpers/pty.ts` register vitest hooks, so `npm run torture` cannot use them). Same
 * environment rules as those helpers: no API keys, the echo assistant, the given data home.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory above this file holding chatkeep's package.json. */
export const ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'chatkeep') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('torture: cannot find the chatkeep package root');
    dir = up;
  }
})();

/** The launcher under test. */
export const BIN = join(ROOT, 'bin', 'chatkeep.js');
/** The compiled library, for child processes (needs `npm run build`). */
export const LIBRARY = join(ROOT, 'dist', 'src', 'index.js');

/** A fresh directory under `root` (canonical path). */
export function freshDir(root: string, prefix: string): string {
  return realpathSync(mkdtempSync(join(root, prefix)));
}

/**
 * A directory whose `chatkeep` links to this checkout's launcher: on PATH, it is what `npm link`
 * sets up, so chatkeep prints its commands as `chatkeep …`.
 */
export const PATH_SHIM = join(ROOT, 'test', 'fixtures', 'path');

/**
 * The environment of a chatkeep run: no API key or chatkeep setting (nor npm's script
 * variables, nor CI's `CI`, which turns colour detection off) leaks in; `chatkeep` on PATH is
 * this checkout, as after `npm link`.
 */
export function chatEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/API_KEY|BASE_URL|^CHATKEEP_|^NO_COLOR$|^FORCE_COLOR$|^npm_|^CI$|^CI_|^PG/.test(key)) env[key] = value;
  }
  env.PATH = `${PATH_SHIM}${delimiter}${env.PATH ?? ''}`;
  return { ...env, CHATKEEP_HOME: home, CHATKEEP_ECHO_DELAY_MS: '0', ...extra };
}

/** True when `text` contains `what` (a string) or matches it (a RegExp). */
export function matches(text: string, what: string | RegExp): boolean {
  return typeof what === 'string' ? text.includes(what) : what.test(text);
}

/**
 * Resolves once `found()` holds, checked now and whenever a listener fires; rejects with
 * `failure('ended')` if the process ends first, or `failure('timeout')` after `timeout` ms.
 */
export function waitUntil(
  found: () => boolean,
  watch: { listeners: Set<() => void>; ended: () => boolean; timeout: number },
  failure: (why: 'ended' | 'timeout') => Error,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!found() && !watch.ended()) return;
      cleanup();
      if (found()) resolve();
      else reject(failure('ended'));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(failure('timeout'));
    }, watch.timeout);
    const cleanup = (): void => {
      clearTimeout(timer);
      watch.listeners.delete(check);
    };
    watch.listeners.add(check);
    check();
  });
}

/** Where and how to run chatkeep. */
export interface RunOptions {
  home: string;
  cwd: string;
  env?: Record<string, string>;
  /** Extra node flags before the launcher (e.g. `--import` of a fault injector). */
  nodeArgs?: string[];
  /** Runs as another machine would: in its own UTS namespace with this host name (see `onHost`). */
  host?: string;
}

let unshareChecked = false;
/**
 * The command that runs `argv` as if on machine `host`: in a UTS namespace of its own
 * (`unshare -u`) renamed with `hostname`, against the same files. Needs root (or user
 * namespaces); says so plainly where that is missing, instead of testing something else.
 */
export function onHost(host: string | undefined, argv: string[]): [string, string[]] {
  if (host === undefined) return [argv[0]!, argv.slice(1)];
  if (!unshareChecked) {
    const probe = spawnSync('unshare', ['-u', 'sh', '-c', 'hostname chatkeep-probe'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      throw new Error(`A second host is simulated with \`unshare -u\` (root, or user namespaces): it failed here: ${probe.error?.message ?? probe.stderr}`);
    }
    unshareChecked = true;
  }
  return ['unshare', ['-u', 'sh', '-c', 'hostname "$0" && exec "$@"', host, ...argv]];
}

/** A chatkeep process on pipes. */
export interface Piped {
  readonly pid: number;
  readonly proc: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  write(text: string): void;
  /** Resolves once stdout (from `from`) matches; rejects if the process ends first or after `timeout` ms. */
  waitStdout(what: string | RegExp, options?: { from?: number; timeout?: number }): Promise<void>;
  waitStderr(what: string | RegExp, options?: { from?: number; timeout?: number }): Promise<void>;
  /** The exit code (128 + 9 after SIGKILL), once both output pipes are drained. */
  readonly closed: Promise<number>;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts chatkeep with piped stdin/stdout/stderr. */
export function spawnPiped(args: string[], options: RunOptions): Piped {
  const [file, argv] = onHost(options.host, [process.execPath, ...(options.nodeArgs ?? []), BIN, ...args]);
  const proc = spawn(file, argv, {
    cwd: options.cwd,
    env: chatEnv(options.home, options.env),
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  let done = false;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  proc.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), notify()));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => ((err += d), notify()));
  // A killed child's stdin may be closed under our feet: writes then fail quietly.
  proc.stdin.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => {
    proc.on('close', (code, signal) => {
      done = true;
      notify();
      resolve(code ?? (signal === 'SIGKILL' ? 137 : 128));
    });
  });
  const waiter =
    (text: () => string) =>
    (what: string | RegExp, { from = 0, timeout = 15_000 }: { from?: number; timeout?: number } = {}): Promise<void> =>
      waitUntil(() => matches(text().slice(from), what), { listeners, ended: () => done, timeout }, (why) =>
        new Error(
          `${why === 'ended' ? 'chatkeep ended before printing' : 'timed out waiting for'} ${String(what)}; stdout: ${out.slice(-400)} stderr: ${err.slice(-400)}`,
        ),
      );
  return {
    pid: proc.pid ?? -1,
    proc,
    stdout: () => out,
    stderr: () => err,
    write: (text) => {
      if (!proc.stdin.destroyed) proc.stdin.write(text);
    },
    waitStdout: waiter(() => out),
    waitStderr: waiter(() => err),
    closed,
    kill: (signal = 'SIGKILL') => {
      if (!done) proc.kill(signal);
    },
  };
}

/** What a finished run printed. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs chatkeep to the end with `input` on stdin. */
export async function runPiped(args: string[], input: string | Buffer, options: RunOptions & { timeout?: number }): Promise<RunResult> {
  const started = Date.now();
  const run = spawnPiped(args, options);
  run.proc.stdin.end(input);
  const timer = setTimeout(() => run.kill(), options.timeout ?? 60_000);
  const code = await run.closed;
  clearTimeout(timer);
  return { code, stdout: run.stdout(), stderr: run.stderr(), ms: Date.now() - started };
}
