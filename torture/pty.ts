/** The real binary in a pseudo-terminal (node-pty), for what only a terminal does: history, pastes, pickers, hang-ups. */
import { spawn as spawnChild } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import * as pty from '@lydell/node-pty';
import { BIN, chatEnv, matches, onHost, waitUntil, type RunOptions } from './proc.js';
import { drainBeforeDestroy } from './pty-drain.js';

/** A chatkeep in a pseudo-terminal, driven key by key (the one spawn of the real binary in a pty: test/helpers/pty.ts builds on it). */
export interface Term {
  readonly pid: number;
  write(text: string): void;
  /** Resolves once the screen (from `from`, an offset into it) shows `what`; rejects if chatkeep ends first or after `timeout` ms. */
  waitFor(what: string | RegExp, options?: { from?: number; timeout?: number }): Promise<void>;
  /** Resolves once `found()` holds, checked at each output; rejects with `failure(why)` if chatkeep ends first or after `timeout` ms. */
  until(found: () => boolean, timeout: number, failure: (why: 'ended' | 'timeout') => Error): Promise<void>;
  /** Everything printed so far, ANSI escapes removed, `\r\n` as `\n`, a line redrawn after `\r` as its last form. */
  screen(): string;
  /** Everything printed so far, escapes included. */
  output(): string;
  /** True once chatkeep has ended. */
  ended(): boolean;
  /** Resizes the terminal (the program gets SIGWINCH). */
  resize(cols: number, rows: number): void;
  /** Closes the terminal, as closing its window does: the pty goes away, then SIGHUP. */
  destroy(): void;
  /**
   * Keeps the terminal open in another process too, as a terminal's other tabs may hold it: after
   * `destroy()` chatkeep gets its SIGHUP while the terminal still answers. Ending that process (the
   * function returned) ends the terminal.
   */
  holdElsewhere(): () => void;
  kill(signal?: string): void;
  /** The exit code (128 + signal when killed by one). */
  readonly exited: Promise<number>;
}

/** The terminal's size (default 160×40), and a tap on its output (e.g. to play it into an emulator). */
export interface TermOptions extends RunOptions {
  cols?: number;
  rows?: number;
  onData?: (data: string) => void;
  /** Runs this script (an embedding example) instead of chatkeep. */
  script?: string;
}

/** Starts chatkeep in a pseudo-terminal. */
export function spawnTerm(args: string[], options: TermOptions): Term {
  const [file, argv] = onHost(options.host, [process.execPath, options.script ?? BIN, ...args]);
  const term = pty.spawn(file, argv, {
    name: 'xterm-256color',
    cols: options.cols ?? 160,
    rows: options.rows ?? 40,
    cwd: options.cwd,
    env: { ...chatEnv(options.home, options.env), TERM: 'xterm-256color' },
  });
  let raw = '';
  let done = false;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  const received = (data: string): void => {
    raw += data;
    options.onData?.(data);
    notify();
  };
  term.onData(received);
  drainBeforeDestroy(term, received);
  const exited = new Promise<number>((resolve) =>
    term.onExit(({ exitCode, signal }) => {
      done = true;
      notify();
      resolve(signal ? 128 + signal : exitCode);
    }),
  );
  // A carriage return alone starts the line again (a reply's line redrawn in its rendered
  // form): what is visible is what came after the last one.
  const screen = (): string =>
    stripVTControlCharacters(raw)
      .replace(/\r+\n/g, '\n')
      .split('\n')
      .map((line) => line.slice(line.lastIndexOf('\r') + 1))
      .join('\n');
  const until = (found: () => boolean, timeout: number, failure: (why: 'ended' | 'timeout') => Error): Promise<void> =>
    waitUntil(found, { listeners, ended: () => done, timeout }, failure);
  return {
    pid: term.pid,
    write: (text) => term.write(text),
    screen,
    output: () => raw,
    ended: () => done,
    until,
    resize: (cols, rows) => term.resize(cols, rows),
    exited,
    destroy: () => (term as pty.IPty & { destroy(): void }).destroy(),
    holdElsewhere() {
      const holder = spawnChild('sleep', ['600'], { stdio: ['ignore', 'ignore', 'ignore', (term as pty.IPty & { _fd: number })._fd] });
      return () => holder.kill('SIGKILL');
    },
    kill: (signal) => term.kill(signal),
    waitFor: (what, { from = 0, timeout = 20_000 } = {}) =>
      until(() => matches(screen().slice(from), what), timeout, (why) => {
        if (why === 'timeout') term.kill('SIGKILL');
        return new Error(`${why === 'ended' ? 'chatkeep ended before showing' : 'timed out waiting for'} ${String(what)}; screen: ${screen().slice(-500)}`);
      }),
  };
}

/** A chatkeep in a pseudo-terminal, driven line by line. */
export interface PtyRun {
  /** Types `text` and Enter, then waits for the next prompt. */
  line(text: string, timeout?: number): Promise<void>;
  /** Pastes `text` (bracketed paste: one message, newlines kept), Enter, and waits for the prompt. */
  paste(text: string, timeout?: number): Promise<void>;
  /** Types /quit and resolves to the exit code. */
  quit(): Promise<number>;
  screen(): string;
}

/** Starts chatkeep in a pseudo-terminal and waits for its first prompt. */
export async function startPty(args: string[], options: RunOptions): Promise<PtyRun> {
  const term = spawnTerm(args, options);
  await term.waitFor(/› $/);
  const send = async (text: string, timeout: number): Promise<void> => {
    const from = term.screen().length;
    term.write(text);
    // The echo of what was typed ends with the prompt too: wait for output after the reply.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await term.waitFor(/› $/, { from: from + 1, timeout });
  };
  return {
    line: (text, timeout = 20_000) => send(`${text}\r`, timeout),
    paste: (text, timeout = 20_000) => send(`\x1b[200~${text}\x1b[201~\r`, timeout),
    async quit() {
      term.write('/quit\r');
      return term.exited;
    },
    screen: term.screen,
  };
}
