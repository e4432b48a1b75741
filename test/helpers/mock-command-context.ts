/**
 * A CommandContext over the real session manager and the memory store, for unit tests of slash commands.
 */
import { builtinCommands } from '../../src/repl/commands/index.js';
import { commandIn } from '../../src/repl/host-words.js';
import { SessionController } from '../../src/repl/controller.js';
import { createProvider, loadSystemPrompt } from '../../src/providers/index.js';
import { EchoProvider } from '../../src/providers/echo.js';
import { createChatControls } from '../../src/repl/chat-controls.js';
import type { ChatControls } from '../../src/repl/chat-controls.js';
import type { Clipboard } from '../../src/terminal/clipboard.js';
import { loadFormatter } from '../../src/terminal/format.js';
import { writeOutputFile } from '../../src/terminal/output-file.js';
import type { BrowseOutcome, CommandContext, CommandServices, CommandSession } from '../../src/repl/types.js';
import type { Session } from '../../src/session/api/session-api.js';
import { memorySessions, PROJECT, type MemorySessions } from './memory-sessions.js';

/** A session browser that answers from a script (`undefined`: cancel) and records the headings it was opened with. */
export interface FakeBrowser {
  headings: string[];
  browse(heading: string): Promise<BrowseOutcome>;
}

export function createFakeBrowser(answers: (string | undefined)[] = [], notes: string[] = []): FakeBrowser {
  const headings: string[] = [];
  return {
    headings,
    browse(heading) {
      headings.push(heading);
      const id = answers.shift();
      return Promise.resolve({ choice: id === undefined ? { kind: 'cancel' } : { kind: 'resume', id }, notes });
    },
  };
}

/** The mock context plus its parts, typed concretely for assertions. */
export interface MockCommandContext extends CommandContext {
  /** The manager's store, its clock, and what other processes do to it. */
  memory: MemorySessions;
  services: CommandServices & { clipboard: FakeClipboard; chat: ChatControls };
  session: CommandSession & { current: Session };
  /** What `writeFile` was given, by name. */
  files: Map<string, string>;
}

/** A clipboard that records what was written; `unavailable` says why it cannot work (undefined: it can). */
export interface FakeClipboard extends Clipboard {
  written: string[];
}

/** A context with a fresh manager and a newly created current session. */
export async function createMockCommandContext(
  options: {
    browser?: FakeBrowser;
    env?: Record<string, string>;
    cwd?: string;
    clipboardUnavailable?: string;
    /** Files are written for real under this directory, as chatkeep's chat writes them (`anywhere`: the host lets them leave it). */
    writeTo?: { dir: string; anywhere?: boolean };
  } = {},
): Promise<MockCommandContext> {
  const memory = memorySessions();
  const sessions = memory.sessions;
  const session = await sessions.create();
  const controller = new SessionController({ sessions, host: { program: 'chatkeep', subcommands: true } }, session);
  const words = { host: controller.host, prefix: '/', commands: builtinCommands };
  const written: string[] = [];
  const files = new Map<string, string>();
  return {
    files,
    memory,
    commands: builtinCommands,
    services: {
      sessions,
      ...(options.browser ? { browse: (heading: string) => options.browser!.browse(heading) } : {}),
      now: memory.now,
      // The real factories, over the environment and directory the test passes.
      chat: createChatControls(() => session, { provider: new EchoProvider(0), system: null }, {
        makeProvider: (name, model) => createProvider({ name, model, source: 'command' }, options.env ?? {}),
        readSystemPrompt: (file) => loadSystemPrompt(file, options.cwd ?? process.cwd()),
      }),
      clipboard: { unavailable: options.clipboardUnavailable, written, write: (text) => void written.push(text) },
      version: '0.0.0-test',
      writeFile: (name, text) => {
        files.set(name, text);
        const to = options.writeTo;
        if (to) return writeOutputFile(to.dir, name, text, { anywhere: to.anywhere === true });
        return Promise.resolve(`/fake/cwd/${name}`);
      },
    },
    ui: {
      formatter: loadFormatter,
      rowOptions: (currentId) => ({ ...(currentId !== undefined ? { currentId } : {}), projectPath: PROJECT.path, now: memory.now() }),
      // Visible in plain text, so tests see what a terminal would highlight.
      highlight: (text) => `[${text}]`,
      columns: () => undefined,
      words,
      command: (name, ...args) => commandIn(words, name, args) ?? [`/${name}`, ...args].join(' '),
    },
    // The real controller's save and reset (it emits the `saved` event a host listens to).
    session: { current: session, autosave: () => undefined, persistent: true, save: (o) => controller.save(o), reset: () => controller.reset() },
  };
}
