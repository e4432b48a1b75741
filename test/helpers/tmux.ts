/**
 * Runs the real `bin/chatkeep.js` in a tmux window, for what only closing a real terminal
 * does: the pty goes away under the process (reads fail, SIGHUP), as when a person closes the
 * window. A wrapper shell stands in for the person's shell: it forwards the hang-up to
 * chatkeep as an interactive shell does, and records chatkeep's exit code and stderr.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onTestFinished } from 'vitest';
import { chatEnv } from '../../torture/proc.js';
import { BIN, type RunOptions } from './pty.js';
import { tmpHome } from './tmp-home.js';

/** A chatkeep in a tmux window. */
export interface TmuxRun {
  /** What the window shows now (plain text). */
  pane(): string;
  /** Resolves once the window shows `text`. */
  waitFor(text: string | RegExp, timeout?: number): Promise<string>;
  /** Types text (literally) and optionally Enter. */
  type(text: string, enter?: boolean): void;
  /** Closes the window, as a person closing the terminal does. */
  close(): void;
  /** Resolves once chatkeep has exited: its exit code and what it wrote to stderr. */
  exited(timeout?: number): Promise<{ code: number; stderr: string }>;
}

let counter = 0;

/** Starts chatkeep with `args` in a fresh tmux server (its own socket), killed when the test ends. */
export function startInTmux(args: string[], options: RunOptions): TmuxRun {
  const dir = tmpHome('chatkeep-tmux-');
  const socket = `chatkeep-test-${process.pid}-${++counter}`;
  const errFile = join(dir, 'stderr');
  const rcFile = join(dir, 'rc');
  const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    [
      `cd ${quote(options.cwd)}`,
      // stdin from the terminal explicitly: a background job of a non-interactive shell gets /dev/null.
      `${[process.execPath, BIN, ...args].map(quote).join(' ')} </dev/tty 2>${quote(errFile)} &`,
      'child=$!',
      `trap 'kill -HUP $child 2>/dev/null' HUP`,
      'wait $child; rc=$?',
      // wait returns early when the trap runs: wait again for the real exit.
      'while kill -0 $child 2>/dev/null; do wait $child; rc=$?; done',
      `echo $rc > ${quote(rcFile)}`,
    ].join('\n'),
  );
  const tmux = (...rest: string[]) =>
    spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...rest], {
      encoding: 'utf8',
      env: chatEnv(options.home, { TERM: 'xterm-256color', ...options.env }),
    });
  const started = tmux('new-session', '-d', '-s', 'chat', '-x', '160', '-y', '40', `bash ${quote(script)}`);
  if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr}`);
  onTestFinished(() => void tmux('kill-server'));
  const pane = (): string => tmux('capture-pane', '-p', '-t', 'chat').stdout ?? '';
  return {
    pane,
    async waitFor(text, timeout = 15_000) {
      const until = Date.now() + timeout;
      for (;;) {
        const shown = pane();
        if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
        if (Date.now() > until) throw new Error(`Timed out waiting for ${String(text)}. Window:\n${shown}`);
        await sleep(50);
      }
    },
    type(text, enter = false) {
      tmux('send-keys', '-t', 'chat', '-l', text);
      if (enter) tmux('send-keys', '-t', 'chat', 'Enter');
    },
    close() {
      tmux('kill-session', '-t', 'chat');
    },
    async exited(timeout = 15_000) {
      const until = Date.now() + timeout;
      while (!existsSync(rcFile) || readFileSync(rcFile, 'utf8').trim() === '') {
        if (Date.now() > until) throw new Error(`chatkeep did not exit within ${timeout} ms; stderr: ${readFileSync(errFile, 'utf8')}`);
        await sleep(50);
      }
      return { code: Number(readFileSync(rcFile, 'utf8').trim()), stderr: readFileSync(errFile, 'utf8') };
    },
  };
}
