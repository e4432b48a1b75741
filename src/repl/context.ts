/**
 * Builds the `CommandContext` a host's commands run with, over its controller and screen: the
 * session group follows the controller (a switch is seen at once), the ui group fits output to
 * the screen, the services default to what any host can offer.
 */
import { UserError } from '../session/api/errors.js';
import { createClipboard, type Clipboard } from '../terminal/clipboard.js';
import { loadFormatter, rowWidth } from '../terminal/format.js';
import type { Screen } from '../terminal/screen.js';
import type { ChatControls } from './chat-controls.js';
import type { SessionController } from './controller.js';
import { commandIn } from './host-words.js';
import type { BrowseOutcome, CommandContext, SlashCommand } from './types.js';

export interface ContextOptions {
  controller: SessionController;
  screen: Screen;
  commands: readonly SlashCommand[];
  /** The host's assistant (chatkeep's own); without it /model, /provider and /system refuse. */
  chat?: ChatControls;
  /** Opens the session browser asking `heading` (a terminal only). */
  browse?: (heading: string) => Promise<BrowseOutcome>;
  /** Lets the user pick one of some rows (a terminal only). */
  pick?: (heading: string, rows: readonly string[]) => Promise<number | undefined>;
  /** The host puts a session's draft back in its input line after a switch. */
  draftAtPrompt?: boolean;
  /** Default: none known to work (an empty environment). */
  clipboard?: Clipboard;
  /** How `/export` writes the file it is given (default: it refuses). */
  writeFile?: (name: string, text: string) => Promise<string>;
  /** The host's version, recorded in exports. */
  version?: string;
  /** What a command is typed with in this host (default `/`; `.` in node:repl). */
  prefix?: string;
  /** Lines /help shows after the commands: what the host does with other lines and keys (default none). */
  helpNotes?: readonly string[];
  now?: () => Date;
}

export function createCommandContext(options: ContextOptions): CommandContext {
  const { controller, screen } = options;
  const now = options.now ?? (() => new Date());
  const words = { host: controller.host, prefix: options.prefix ?? '/', commands: options.commands };
  return {
    commands: options.commands,
    services: {
      sessions: controller.sessions,
      ...(options.browse ? { browse: options.browse } : {}),
      ...(options.pick ? { pick: options.pick } : {}),
      now,
      ...(options.chat ? { chat: options.chat } : {}),
      clipboard: options.clipboard ?? createClipboard(screen, {}),
      version: options.version ?? '0.0.0',
      writeFile: options.writeFile ?? (() => Promise.reject(new UserError('This REPL cannot write files.', 'E_NO_FILES'))),
    },
    ui: {
      formatter: loadFormatter,
      rowOptions: (currentId) => ({ ...(currentId !== undefined ? { currentId } : {}), projectPath: controller.sessions.project.path, now: now(), width: rowWidth(screen, false) }),
      highlight: (text) => screen.color.inverse(text),
      columns: () => screen.columns(),
      words,
      helpNotes: options.helpNotes ?? [],
      draftAtPrompt: options.draftAtPrompt === true,
      command: (name, ...args) => commandIn(words, name, args) ?? [`${words.prefix}${name}`, ...args].join(' '),
    },
    session: {
      get current() {
        return controller.session;
      },
      autosave: () => controller.autosave,
      persistent: controller.persistent,
      save: (options) => controller.save(options),
      reset: () => controller.reset(),
    },
  };
}
