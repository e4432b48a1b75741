/**
 * Opens the session browser full-screen (the terminal's alternate screen) and resolves to what
 * was chosen. Built on `@inquirer/core`, imported here and only here, when the browser opens:
 * start-up never pays for it. The prompt reads keys through node:readline's keypress events,
 * so the event loop runs throughout (the lock's heartbeat and autosave go on however long the
 * browser stays open). Every way out (Enter, Esc, Ctrl-C, Ctrl-D, a hang-up, a signal) leaves
 * the alternate screen, shows the cursor, and gives the keys and the terminal's mode back to
 * whoever had them (the REPL's line reader).
 */
import type { EventEmitter } from 'node:events';
import type { ChalkInstance } from 'chalk';
import type { Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { loadWidths } from '../terminal/table.js';
import { findSessions } from './find-sessions.js';
import { FIRST_ROWS, type BrowseChoice, type BrowserConfig } from './config.js';
import type { HostName } from '../repl/host.js';
import { importRequired } from '../session/runtime/optional-package.js';

export type { BrowseChoice } from './config.js';

export interface BrowseOptions {
  sessions: SessionManager;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** The question on the first line (`Resume which session?`). */
  heading: string;
  /** Start with every project (Tab switches). */
  all?: boolean;
  /** The host's own open session (the REPL's): marked, forked and renamed from its live state, never trashed. */
  live?: Session | undefined;
  /** Writes an export the user named, relative to the working directory; resolves to its absolute path. */
  writeFile(name: string, text: string): Promise<string>;
  version: string;
  color: ChalkInstance;
  /** The host's program: a move to the trash says how to restore only when it takes chatkeep's subcommands. */
  host?: HostName | undefined;
  /** Aborted: the browser closes as if cancelled (the host is leaving: a hang-up, SIGTERM). */
  signal?: AbortSignal | undefined;
  /** Where SIGHUP and SIGTERM arrive when no host handles them (`process` before the REPL runs). */
  signals?: EventEmitter | undefined;
  now?: () => Date;
}

/** What the browser chose, and the lines its actions said (for the host to print after it). */
export interface BrowseResult {
  choice: BrowseChoice;
  notes: string[];
}

const ENTER_ALTERNATE = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE_ALTERNATE = '\x1b[?25h\x1b[?1049l';
const ENDINGS = new Set(['AbortPromptError', 'ExitPromptError', 'CancelPromptError']);

/** Runs the browser until a session is chosen or it is left. */
export async function browseSessions(options: BrowseOptions): Promise<BrowseResult> {
  const { sessions, input, output } = options;
  const all = options.all === true;
  const [core, { browserPrompt }, rows, widths] = await Promise.all([
    importRequired('@inquirer/core', 'The session browser', () => import('@inquirer/core')),
    import('./view.js'),
    sessions.list({ all, limit: FIRST_ROWS }),
    loadWidths(),
  ]);
  const notes: string[] = [];
  const config: BrowserConfig = {
    heading: options.heading,
    host: { sessions, live: options.live, writeFile: options.writeFile, version: options.version, program: options.host },
    projectPath: sessions.project.path,
    all,
    rows,
    // As many as asked: there may be more (the view lists them behind the first paint).
    partial: rows.length >= FIRST_ROWS,
    list: (every, newest) => sessions.list({ all: every, ...(newest !== undefined ? { limit: newest } : {}) }),
    find: (scope, query, every, first) => findSessions(sessions, scope, query, every, first),
    holder: (id) => sessions.holder(id),
    color: options.color,
    widths,
    size: () => ({ columns: output.columns || 80, lines: output.rows || 24 }),
    onResize: (listener) => {
      const redraw = (): void => {
        // The whole screen anew: what a narrower terminal cut off must not stay behind.
        output.write('\x1b[H\x1b[2J');
        listener();
      };
      output.on('resize', redraw);
      return () => output.off('resize', redraw);
    },
    now: options.now ?? (() => new Date()),
    notes,
  };

  // The terminal going away (reads fail or end) or the host leaving ends the browser as a cancel.
  const ending = new AbortController();
  const end = (): void => ending.abort();
  const stopOuter = options.signal ? listen(options.signal, end) : undefined;
  input.on('end', end);
  input.on('error', end);
  options.signals?.on('SIGHUP', end);
  options.signals?.on('SIGTERM', end);
  // The host's line reader steps aside: its keys would otherwise be typed into its own prompt too.
  const held = input.listeners('keypress') as ((...args: unknown[]) => void)[];
  for (const listener of held) input.removeListener('keypress', listener);
  // Ctrl-D closes the prompt's readline (which silences the prompt's own keys) before the
  // prompt hears it: heard first, here, it leaves as Esc does.
  const onKey = (_text: unknown, key: { ctrl?: boolean; name?: string } | undefined): void => {
    if (key?.ctrl && key.name === 'd') end();
  };
  input.on('keypress', onKey);
  const raw = input.isRaw;
  output.write(ENTER_ALTERNATE);
  let choice: BrowseChoice = { kind: 'cancel' };
  try {
    choice = await browserPrompt(core)(config, { input, output, signal: ending.signal, clearPromptOnDone: true });
  } catch (err) {
    if (!(err instanceof Error && ENDINGS.has(err.name))) throw err;
  } finally {
    if (output.writable) output.write(LEAVE_ALTERNATE);
    // While `end` still hears the input's errors: on a terminal gone, this fails (an 'error' event, EIO).
    if (!input.destroyed && input.isTTY) input.setRawMode(raw);
    stopOuter?.();
    input.off('keypress', onKey);
    input.off('end', end);
    input.off('error', end);
    options.signals?.off('SIGHUP', end);
    options.signals?.off('SIGTERM', end);
    for (const listener of held) input.on('keypress', listener);
    // The browser's readline paused the input as it closed; the host's reader reads on.
    if (held.length > 0 && !ending.signal.aborted) input.resume();
  }
  return { choice: ending.signal.aborted ? { kind: 'cancel' } : choice, notes };
}

function listen(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) listener();
  signal.addEventListener('abort', listener);
  return () => signal.removeEventListener('abort', listener);
}
