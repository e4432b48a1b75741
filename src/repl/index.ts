/**
 * `chatkeep/repl`: the REPL component (docs/design.md §14). A controller that owns a host's current
 * session, the slash commands as data that return results, the renderers that fit them to a
 * terminal, the session browser, and two adapters (`node:repl`, `node:readline`). chatkeep's
 * own REPL is a host of exactly this.
 */

/** The controller: open, switch (/load, /fork), reset, the lost-lock path, leaving with exit lines, events. */
export { SessionController } from './controller.js';
export type { AutosaveOption, ControllerEvent, ControllerOptions, OpenOptions } from './controller.js';
/** How a host names itself: printed commands are written for its program and flag. */
export { hostCommand, resumeCommand } from './host.js';
export type { HostName } from './host.js';
export { adviceIn, commandIn, errorLine } from './host-words.js';
export type { HostWords } from './types.js';
export type { HostLine, Leaving } from './exit-lines.js';

/** The slash commands, and a host's own list of them (renamed, dropped, added). */
export { builtinCommands } from './commands/index.js';
export { commandSet } from './command-set.js';
export type { CommandSetChanges } from './command-set.js';
export { info, refusal } from './command-result.js';
export type { BrowseOutcome, CommandContext, CommandResult, CommandServices, CommandSession, CommandUi, SlashCommand } from './types.js';
export { createCommandContext } from './context.js';
export type { ContextOptions } from './context.js';
export { createChatControls } from './chat-controls.js';
export type { ChatControls, ChatFactories } from './chat-controls.js';

/** From a typed line to what to show: parse, run, carry out through the controller. */
export { dispatchLine, runCommand } from './dispatch.js';
export type { DispatchOptions, Dispatched, OutputLine } from './dispatch.js';
export { findCommand, parseSlashCommand, suggestCommand } from './parse-slash-command.js';
export type { ParsedLine } from './parse-slash-command.js';
export { completeLine } from './complete.js';

/** Renderers: lines on a screen fitted to its width, colour only where it shows (NO_COLOR, FORCE_COLOR). */
export { screenFor, showLines, showResumed } from './render.js';
export { colorLevelFor, createScreen } from '../terminal/screen.js';
export type { Screen } from '../terminal/screen.js';
export { loadFormatter, relativeTime, type Formatter, type RowOptions } from '../terminal/format.js';
export { formatSearchResults } from '../terminal/format-search.js';
export { openBrowser } from './browser.js';
export type { BrowseOptions, BrowseResult } from './browser.js';

/** Adapters: a few lines give a host the whole experience. */
export { attach } from './adapters/node-repl.js';
export type { AttachedRepl } from './adapters/node-repl.js';
export { attachReadline } from './adapters/readline.js';
export type { ReadlineChat } from './adapters/readline.js';
export { SESSION_COMMANDS } from './adapters/open-host.js';
export type { AdapterOptions } from './adapters/open-host.js';
