/**
 * A CommandContext over the in-memory session manager, for unit tests of slash commands.
 */
import { builtinCommands } from '../../commands/index.js';
import { createProvider, loadSystemPrompt } from '../../src/providers/index.js';
import { EchoProvider } from '../../src/providers/echo.js';
import { createChatControls } from '../../src/repl/chat-controls.js';
import type { Clipboard } from '../../src/repl/clipboard.js';
import { formatRows, loadFormatting } from '../../src/repl/format.js';
import type { CommandContext, Prompter } from '../../src/repl/types.js';
import { FakeSession, FakeSessionManager } from './fake-sessions.js';

/** A prompter that answers from a script and records what it was asked. */
export interface FakePrompter extends Prompter {
  asked: { items: string[]; question: string }[];
}

/** Picks `answers` in order (index, -1 to cancel); `interactive: false` behaves like a pipe. */
export function createFakePrompter(answers: number[] = [], interactive = true): FakePrompter {
  const asked: { items: string[]; question: string }[] = [];
  return {
    interactive,
    asked,
    pick(items, question) {
      asked.push({ items, question });
      return Promise.resolve(answers.shift() ?? -1);
    },
    confirm(question) {
      asked.push({ items: [], question });
      return Promise.resolve((answers.shift() ?? 0) >= 0);
    },
  };
}

/** The mock context plus its parts, typed concretely for assertions. */
export interface MockCommandContext extends CommandContext {
  sessions: FakeSessionManager;
  session: FakeSession;
  prompter: FakePrompter;
  clipboard: FakeClipboard;
  /** What `writeFile` was given, by name. */
  files: Map<string, string>;
}

/** A clipboard that records what was written; `unavailable` says why it cannot work (undefined: it can). */
export interface FakeClipboard extends Clipboard {
  written: string[];
}

/** A context with a fresh manager and a newly created current session. */
export async function createMockCommandContext(
  options: { prompter?: FakePrompter; env?: Record<string, string>; cwd?: string; clipboardUnavailable?: string } = {},
): Promise<MockCommandContext> {
  await loadFormatting();
  const sessions = new FakeSessionManager();
  const session = await sessions.create();
  const written: string[] = [];
  const files = new Map<string, string>();
  return {
    files,
    // The real factories, over the environment and directory the test passes.
    chat: createChatControls(() => session, { provider: new EchoProvider(0), system: null }, {
      makeProvider: (name, model) => createProvider({ name, model, source: 'command' }, options.env ?? {}),
      readSystemPrompt: (file) => loadSystemPrompt(file, options.cwd ?? process.cwd()),
    }),
    clipboard: { unavailable: options.clipboardUnavailable, written, write: (text) => void written.push(text) },
    autosave: () => undefined,
    persistent: true,
    version: '0.0.0-test',
    writeFile: (name, text) => {
      files.set(name, text);
      return Promise.resolve(`/fake/cwd/${name}`);
    },
    sessions,
    session,
    prompter: options.prompter ?? createFakePrompter(),
    commands: builtinCommands,
    now: () => sessions.now(),
    formatRows: (rows, currentId) => formatRows(rows, { currentId, projectPath: sessions.project.path, now: sessions.now() }),
    // Visible in plain text, so tests see what a terminal would highlight.
    highlight: (text) => `[${text}]`,
    columns: () => undefined,
  };
}
