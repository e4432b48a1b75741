/**
 * Drives the real `bin/chatkeep.js`: in a pseudo-terminal (node-pty), as a person types, or
 * through a pipe, as a script would. Each run gets the data home and project directory the
 * test passes (fresh `tmpHome()` directories) and the offline echo assistant with no delay.
 */
import { spawn as spawnChild, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import xterm from '@xterm/headless';
import { onTestFinished } from 'vitest';
import { chatEnv, matches, onHost } from '../../torture/proc.js';
import { spawnTerm } from '../../torture/pty.js';
import { bannerId } from './session-files.js';

/** The launcher under test. */
export const BIN = fileURLToPath(new URL('../../bin/chatkeep.js', import.meta.url));

/** Where and how to run. */
export interface RunOptions {
  home: string;
  cwd: string;
  /** Extra environment (e.g. `CHATKEEP_ECHO_DELAY_MS: '200'`). */
  env?: Record<string, string>;
  /** Runs as on another machine with this host name (its own UTS namespace), same files. */
  host?: string;
  /** The terminal's size (default 160×40). */
  cols?: number;
  rows?: number;
  /** The pseudo-terminal's width (default 160 columns). */
  columns?: number;
  /** Runs this script (an embedding example) instead of chatkeep. */
  script?: string;
}

function environment(options: RunOptions): Record<string, string> {
  return chatEnv(options.home, { TERM: 'xterm-256color', ...options.env });
}

/** A chatkeep running in a pseudo-terminal. */
export interface PtyRun {
  readonly pid: number;
  write(text: string): void;
  /** Types a line and presses Enter. */
  line(text: string): void;
  /** Resolves with the screen text once it contains `what` (after `from`, an offset into the screen). */
  waitFor(what: string | RegExp, options?: { timeout?: number; from?: number }): Promise<string>;
  /** Resolves once the REPL waits at its prompt (`› ` ends the screen): typing is safe, raw mode is on. */
  prompt(options?: { timeout?: number }): Promise<string>;
  /** At the prompt, types `text` and presses Enter; resolves with the screen once it contains `until`. */
  say(text: string, until: string | RegExp): Promise<string>;
  /** At the prompt, types `/quit`; resolves to the exit code. */
  quit(): Promise<number>;
  /** Everything printed so far, ANSI escapes removed, `\r\n` as `\n`. */
  screen(): string;
  /**
   * What a person sees: the output played into a terminal emulator (cursor moves and clears
   * applied), as lines from the top of the scrollback, trailing spaces and empty lines dropped.
   */
  visible(): Promise<string[]>;
  /** Everything printed so far, escapes included (e.g. to find an OSC 52 clipboard write). */
  output(): string;
  /** Which lines of `visible()` (by index) are the wrapped-over rest of the line above: none when every line fits. */
  wrapped(): Promise<number[]>;
  /** Resolves to the exit code (or 128 + signal). */
  readonly exited: Promise<number>;
  kill(signal?: string): void;
  /** Resizes the terminal (the program gets SIGWINCH), and the emulator with it. */
  resize(cols: number, rows: number): void;
  /** Closes the terminal itself, as closing its window does: the pty goes away, then SIGHUP. */
  destroy(): void;
  /** Keeps the terminal open in another process too (torture/pty.ts's `Term.holdElsewhere`); the function returned ends it. */
  holdElsewhere(): () => void;
}

/** Starts chatkeep in a pseudo-terminal (torture/pty.ts's `spawnTerm`); it is killed when the test finishes if still running. */
export function spawnPty(args: string[], options: RunOptions): PtyRun {
  const cols = options.columns ?? options.cols ?? 160;
  const rows = options.rows ?? 40;
  const emulator = new xterm.Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  const term = spawnTerm(args, { ...options, cols, rows, onData: (data) => emulator.write(data) });
  onTestFinished(() => {
    if (!term.ended()) term.kill('SIGKILL');
  });
  // What was printed as it came: a line redrawn after `\r` keeps both forms (unlike `Term.screen`).
  const screen = (): string => stripVTControlCharacters(term.output()).replace(/\r+\n/g, '\n');
  return {
    pid: term.pid,
    write: (text) => term.write(text),
    line: (text) => term.write(`${text}\r`),
    screen,
    async visible() {
      await new Promise<void>((resolve) => emulator.write('', resolve));
      const buffer = emulator.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) lines.push((buffer.getLine(i)?.translateToString(true) ?? '').trimEnd());
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines;
    },
    output: () => term.output(),
    async wrapped() {
      await new Promise<void>((resolve) => emulator.write('', resolve));
      const buffer = emulator.buffer.active;
      const lines: number[] = [];
      for (let i = 0; i < buffer.length; i++) if (buffer.getLine(i)?.isWrapped) lines.push(i);
      return lines;
    },
    exited: term.exited,
    kill: (signal) => term.kill(signal),
    resize: (cols, rows) => {
      emulator.resize(cols, rows);
      term.resize(cols, rows);
    },
    destroy: () => term.destroy(),
    holdElsewhere: () => term.holdElsewhere(),
    prompt(options) {
      return this.waitFor(/› $/, options);
    },
    async say(text, until) {
      await this.prompt();
      this.line(text);
      return this.waitFor(until);
    },
    async quit() {
      await this.prompt();
      this.line('/quit');
      return term.exited;
    },
    async waitFor(what, { timeout = 10_000, from = 0 } = {}) {
      await term.until(() => matches(screen().slice(from), what), timeout, (why) =>
        why === 'ended'
          ? new Error(`chatkeep exited before showing ${String(what)}. Screen:\n${screen()}`)
          : new Error(`Timed out waiting for ${String(what)}. Screen:\n${screen()}`),
      );
      return screen();
    },
  };
}

/**
 * `text` as a person reads it on a terminal that breaks lines between words: each space may be
 * a row break (and the next row's indentation). The words and their order are exact.
 */
export function phrase(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
}

/** A chatkeep started in a pseudo-terminal and waiting at its first prompt. */
export interface StartedPty {
  run: PtyRun;
  /** The session ID its banner names. */
  id: string;
}

/** Starts chatkeep in a pseudo-terminal and waits for its banner and its first prompt. */
export async function startAtPrompt(args: string[], options: RunOptions): Promise<StartedPty> {
  const run = spawnPty(args, options);
  const id = bannerId(await run.waitFor('Type a message'));
  await run.prompt();
  return { run, id };
}

/** What a piped run printed. */
export interface PipedResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A piped chatkeep whose stdin stays open until the test ends it. */
export interface PipedRun {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its outputs closed. */
  result: Promise<PipedResult>;
}

/** Starts chatkeep with stdin, stdout and stderr piped; killed when the test finishes if still running. */
export function spawnPiped(args: string[], options: RunOptions): PipedRun {
  const [file, argv] = onHost(options.host, [process.execPath, options.script ?? BIN, ...args]);
  const child = spawnChild(file, argv, { cwd: options.cwd, env: environment(options), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character split between two chunks is not garbled.
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const result = new Promise<PipedResult>((resolve, reject) => {
    child.on('error', reject);
    // A program that exits without reading all its input (`sessions show`, a refused flag, a
    // `/quit` before the last line) closes the pipe under a pending write: that EPIPE is the
    // child's choice, not a failure of the test, and would otherwise be an unhandled error.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? 128 + (signal ? 1 : 0), stdout, stderr }));
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, result };
}

/** Runs chatkeep with `input` piped to stdin (closed after it), collecting both outputs. */
export function runPiped(args: string[], input: string, options: RunOptions): Promise<PipedResult> {
  const run = spawnPiped(args, options);
  run.child.stdin.end(input);
  return run.result;
}

/** Runs a piped chat of `input` (ending in /quit); resolves to the ID of the session it saved. */
export async function savedChat(input: string, options: RunOptions, args: string[] = []): Promise<string> {
  const run = await runPiped(args, input, options);
  const id = /Saved (\S+) \(/.exec(run.stderr)?.[1];
  if (!id) throw new Error(`no session saved (exit ${run.code}):\n${run.stderr}`);
  return id;
}

/** Waits until the visible screen (the emulated terminal's rows) holds `what`; resolves to it. */
export async function untilVisible(run: PtyRun, what: string | RegExp, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const screen = (await run.visible()).join('\n');
    if (typeof what === 'string' ? screen.includes(what) : what.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(what)}. Screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A session browser's screen once its search for `query` has answered: the whole query on the
 * Search line (keys are read as they come, so a screen from before the last ones may already
 * highlight `row`), nothing searching, and `row` (a pattern) highlighted.
 */
export function searchAnswered(query: string, row: string): RegExp {
  const typed = query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?![\\s\\S]*searching…)[\\s\\S]*Search: ${typed}(?!\\S)[\\s\\S]*› ${row}`);
}
