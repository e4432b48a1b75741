/**
 * Slash commands (docs/design.md §14: one file each in `src/repl/commands/`, listed in `commands/index.ts`).
 * Commands get a context and *return* a result; the REPL renders it. They never touch
 * `process` or the file system.
 */
import type { SessionSummary } from '../session/api/listing.js';
import type { Formatter, RowOptions } from '../terminal/format.js';
import type { SaveResult, Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import type { Autosave } from '../session/runtime/autosave.js';
import type { ChatControls } from './chat-controls.js';
import type { Clipboard } from '../terminal/clipboard.js';
import type { HostName } from './host.js';

/** What a command asks the REPL to show or do. */
export type CommandResult =
  | { type: 'message'; level: 'info' | 'warning' | 'error'; content: string }
  | { type: 'quit' }
  /** The REPL closes (and so saves) the current session, then says so before `content`. */
  | { type: 'switch'; session: Session; reason: 'load' | 'fork'; content: string }
  /** Shows `content`, then asks the last user message again (its earlier answers are already superseded). */
  | { type: 'retry'; content: string }
  /** The REPL asks the assistant for a summary and compacts the conversation (`/compact`), focused on `focus`. */
  | { type: 'compact'; focus: string | null }
  | { type: 'none' };

/** What the session browser chose (`resume` an ID, or `cancel`), and the lines its actions said. */
export interface BrowseOutcome {
  choice: { kind: 'resume'; id: string } | { kind: 'cancel' };
  notes: string[];
}

/**
 * Everything a command gets, built once by the host (as gemini-cli groups its context):
 * `services` (what it acts on), `ui` (how its output is fitted to the host's screen) and
 * `session` (the live session and its state). The same command runs in any host, and in
 * tests with a mock context.
 */
export interface CommandContext {
  services: CommandServices;
  ui: CommandUi;
  session: CommandSession;
  /** Every command of this host, for /help, "did you mean" and Tab completion. */
  commands: readonly SlashCommand[];
}

/** What commands act on. */
export interface CommandServices {
  sessions: SessionManager;
  /** Opens the full-screen session browser asking `heading` (absent without a terminal). */
  browse?: ((heading: string) => Promise<BrowseOutcome>) | undefined;
  /** Lets the user pick one of `rows` (one line each) under `heading`: its index, or undefined when cancelled (absent without a terminal). */
  pick?: ((heading: string, rows: readonly string[]) => Promise<number | undefined>) | undefined;
  now(): Date;
  /** The assistant and system prompt of the next turns, and switching them (absent in a host without an assistant). */
  chat?: ChatControls | undefined;
  /** The terminal's clipboard (OSC 52), where it is known to work. */
  clipboard: Clipboard;
  /** The host's version (recorded in exports). */
  version: string;
  /**
   * Writes a file the user named (`/export`), relative to the working directory, replacing one
   * of that name; resolves to its absolute path. A bad name is a `UserError`.
   */
  writeFile(name: string, text: string): Promise<string>;
}

/** How command output is fitted to the host's screen. */
export interface CommandUi {
  /**
   * What command output is measured and laid out with (string-width loads at the first call, not
   * on the way to the first prompt): a command awaits it once and uses it for its lines.
   */
  formatter(): Promise<Formatter>;
  /** How this host lays out listing rows (`Formatter.formatRows`): `currentId` marked, this project, the terminal's width. */
  rowOptions(currentId?: string): RowOptions;
  /** Marks a search hit in command output (inverse video on a colour terminal; the text as is elsewhere). */
  highlight(text: string): string;
  /** The terminal's width in columns (undefined when output is not a terminal): what command output fits. */
  columns(): number | undefined;
  /** The host's words: its program, its prefix and its command list (errors are said in them). */
  words: HostWords & { host: HostName };
  /** True when the host puts a session's draft back in its input line after a switch (chatkeep's chat on a terminal): a command leaves text to edit there. */
  draftAtPrompt?: boolean;
  /** Lines /help shows after the commands: what this host does with other lines and keys, only what it does. */
  helpNotes?: readonly string[];
  /** A command as this host types it (`/load ID`, `.load ID`, a renamed `/open ID`): advice in a result is written with it. */
  command(name: string, ...args: string[]): string;
}

/** The live session and what goes with it. */
export interface CommandSession {
  /** The live session (another one after a `switch`). */
  readonly current: Session;
  /** The running autosave, if any (for its next tick). */
  autosave(): Autosave | undefined;
  /** False with `--no-persist`: nothing is stored. */
  persistent: boolean;
  /** Writes a snapshot now, as the controller's `save` (its `saved` event included). */
  save(options?: { title?: string }): Promise<SaveResult>;
  /** Clears the live conversation, as the controller's `reset`: how many messages were archived. */
  reset(): Promise<number>;
}

export interface SlashCommand {
  name: string;
  /** Set by `commandSet` on a renamed built-in: its built-in name (advice naming it is written with `name`). */
  builtinName?: string;
  aliases?: string[];
  /** One line for /help. */
  summary: string;
  /** The line for /help in this host, when it depends on what the host offers (default `summary`). */
  summaryIn?(ctx: CommandContext): string;
  /** What follows the name in /help, e.g. `[title]` (the host writes its prefix and name before it). */
  args?: string;
  /** Needs a stored session: refused in one line with `--no-persist`. */
  needsStore?: boolean;
  /** Tab completion of the argument being typed (`partial`): the candidates. */
  complete?(ctx: CommandContext, partial: string): Promise<string[]> | string[];
  run(ctx: CommandContext, args: string): Promise<CommandResult> | CommandResult;
}

/** What a host's words are made of. */
export interface HostWords {
  /** Absent only where a host gave none (its options refused): no subcommand is offered then. */
  host?: HostName | undefined;
  /** What a command is typed with (default `/`). */
  prefix?: string;
  /** The host's command list (absent: no chat command is offered as advice). */
  commands?: readonly SlashCommand[];
}
