/** The real binary in a pseudo-terminal (node-pty), for what only a terminal does: history, pastes. */
import { stripVTControlCharacters } from 'node:util';
import * as pty from 'node-pty';
import { BIN, chatEnv, type RunOptions } from './proc.js';

/** A chatkeep in a pseudo-terminal. */
export interface PtyRun {
  /** Types `text` and Enter, then waits for the next prompt. */
  line(text: string, timeout?: number): Promise<void>;
  /** Pastes `text` (bracketed paste: one message, newlines kept), Enter, and waits for the prompt. */
  paste(text: string, timeout?: number): Promise<void>;
  /** Types /quit and resolves to the exit code. */
  quit(): Promise<number>;
  screen(): string;
}

/** Starts chatkeep in a 160×40 pseudo-terminal and waits for its first prompt. */
export async function startPty(args: string[], options: RunOptions): Promise<PtyRun> {
  const term = pty.spawn(process.execPath, [BIN, ...args], {
    name: 'xterm-256color',
    cols: 160,
    rows: 40,
    cwd: options.cwd,
    env: { ...chatEnv(options.home, options.env), TERM: 'xterm-256color' },
  });
  let raw = '';
  const listeners = new Set<() => void>();
  term.onData((data) => {
    raw += data;
    for (const listener of [...listeners]) listener();
  });
  const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = (): string => stripVTControlCharacters(raw).replace(/\r+\n/g, '\n');
  const prompt = (from: number, timeout: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!/› $/.test(screen().slice(from))) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        term.kill('SIGKILL');
        reject(new Error(`no prompt within ${timeout} ms; screen: ${screen().slice(-500)}`));
      }, timeout);
      listeners.add(check);
      check();
    });
  await prompt(0, 20_000);
  const send = async (text: string, timeout: number): Promise<void> => {
    const from = screen().length;
    term.write(text);
    // The echo of what was typed ends with the prompt too: wait for output after the reply.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await prompt(from + 1, timeout);
  };
  return {
    line: (text, timeout = 20_000) => send(`${text}\r`, timeout),
    paste: (text, timeout = 20_000) => send(`\x1b[200~${text}\x1b[201~\r`, timeout),
    async quit() {
      term.write('/quit\r');
      return exited;
    },
    screen,
  };
}
