/**
 * Runs the REPL loop in-process over piped streams, with the real session manager over the
 * memory store: for unit tests of the loop's behaviour (the e2e tests drive the real binary).
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { builtinCommands } from '../../src/repl/commands/index.js';
import { EchoProvider } from '../../src/providers/echo.js';
import type { Provider } from '../../src/models/types.js';
import { runRepl } from '../../src/cli/chat/repl.js';
import { SessionController } from '../../src/repl/controller.js';
import { createScreen } from '../../src/terminal/screen.js';
import type { Session } from '../../src/session/api/session-api.js';
import type { Autosave } from '../../src/session/runtime/autosave.js';
import { memorySessions, type MemorySessions } from './memory-sessions.js';

/** A running REPL and what it printed. */
export interface ReplHarness {
  /** The manager's store, its clock, and what other processes do to it. */
  memory: MemorySessions;
  /** The session the REPL started in. */
  session: Session;
  signals: EventEmitter;
  /** Writes input (as if piped). */
  write(text: string): void;
  /** Ends the input (EOF). */
  end(): void;
  stdout(): string;
  stderr(): string;
  /** Resolves to the exit code. */
  exited: Promise<number>;
  autosaves: { session: Session; stopped: boolean }[];
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string): Promise<void>;
}

/** Starts the loop over a new session (or the one `setup` resumes). */
export async function startRepl(options: { provider?: Provider; setup?: (memory: MemorySessions) => Promise<Session> } = {}): Promise<ReplHarness> {
  const memory = memorySessions();
  const sessions = memory.sessions;
  const session = options.setup ? await options.setup(memory) : await sessions.create();
  const input = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters.filter((w) => out.includes(w.text))) w.resolve();
  });
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const signals = new EventEmitter();
  const autosaves: { session: Session; stopped: boolean }[] = [];
  const exited = runRepl({
    input,
    output: stdout,
    screen: createScreen({ stdout, stderr, terminal: false, colorLevel: 0 }),
    controller: new SessionController(
      {
        sessions,
        host: { program: 'chatkeep' },
        autosave: {
          description: 'every 5 min',
          start: (s): Autosave => {
            const entry = { session: s, stopped: false };
            autosaves.push(entry);
            return { description: 'every 5 min', nextDate: () => null, stop: async () => void (entry.stopped = true) };
          },
        },
      },
      session,
    ),
    resumed: options.setup !== undefined,
    provider: options.provider ?? new EchoProvider(0),
    commands: builtinCommands,
    version: '0.1.0',
    signals,
    now: memory.now,
  });
  return {
    memory,
    session,
    signals,
    write: (text) => input.write(text),
    end: () => input.end(),
    stdout: () => out,
    stderr: () => err,
    exited,
    autosaves,
    waitForStdout: (text) =>
      out.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve })),
  };
}
