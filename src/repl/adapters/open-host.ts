/**
 * What both adapters set up the same way: the sessions (given, or opened at `home` for `cwd`),
 * the controller on the session asked for, a screen over the host's output, the command list
 * and the context the commands run with, and the banner.
 */
import type { EventEmitter } from 'node:events';
import type { OpenSessionsOptions, SessionManager } from '../../session/runtime/manager-api.js';
import { ChatkeepError, UserError } from '../../session/api/errors.js';
import { errorLine } from '../host-words.js';
import type { Screen } from '../../terminal/screen.js';
import { commandSet, type CommandSetChanges } from '../command-set.js';
import { builtinCommands } from '../commands/index.js';
import { createCommandContext } from '../context.js';
import { SessionController, type AutosaveOption, type OpenOptions } from '../controller.js';
import type { HostName } from '../host.js';
import { hostOf } from '../host-options.js';
import { screenFor, showResumed } from '../render.js';
import type { CommandContext } from '../types.js';
import { plural } from '../../text/plural.js';

/** What an adapter is told by its host. */
export interface AdapterOptions extends OpenOptions {
  /** The host's program and resume flag (or only the program's name): `Resume with: …` is written for it. */
  host: HostName | string;
  /** The sessions to use; or give `home` (the data directory) and `cwd` (the project) and they are opened. */
  sessions?: SessionManager;
  home?: string;
  cwd?: string;
  /** More for `openSessions` when `home` is given (a PostgreSQL `store`, `redact`…). */
  open?: Omit<OpenSessionsOptions, 'home' | 'cwd'>;
  /** Default every five minutes. */
  autosave?: AutosaveOption;
  /** The command list: drop, rename or add to the adapter's default set. */
  commands?: CommandSetChanges;
  /** Where SIGTERM and SIGHUP arrive (pass `process`): the session is then saved and the exit lines printed. */
  signals?: EventEmitter;
  /** How `/export FILE` writes (default: atomically, mode 0600, relative to `cwd`; without `cwd` it refuses). */
  writeFile?: (name: string, text: string) => Promise<string>;
  /** Lets `/export FILE` (the default `writeFile`) write outside `cwd`; otherwise such a name is refused with `OutsideDirectoryError`. */
  writeOutsideCwd?: boolean;
  /** The host's version, recorded in exports. */
  version?: string;
  /**
   * The assistant the host talks to (`{ name: 'openai', model: 'gpt-4o-mini' }`), recorded as the
   * session's when it opens, so `sessions list` and `show` name it (without it, chatkeep's offline echo).
   */
  provider?: { name: string; model: string | null };
}

/** The commands an adapter registers unless told otherwise: the session's own (a host without an assistant has no /model, /retry, /compact, /copy). */
export const SESSION_COMMANDS = ['sessions', 'save', 'load', 'reset', 'uncompact', 'fork', 'rewind', 'tree', 'title', 'status', 'export'] as const;

/** An opened host: its controller, screen and context. */
export interface OpenedHost {
  controller: SessionController;
  screen: Screen;
  context: CommandContext;
}

/** Opens what `options` name on `output`, its warnings shown as they come; a failure is thrown for the adapter to say in one line. */
export async function openHost(options: AdapterOptions, output: NodeJS.WritableStream, keep: readonly string[], prefix = '/', helpNotes: readonly string[] = []): Promise<OpenedHost> {
  const sessions = options.sessions ?? (await openSessionsFor(options));
  const { host, autosave, resume, fork, title } = options;
  const controller = await SessionController.open({
    sessions,
    host,
    ...(autosave !== undefined ? { autosave } : {}),
    ...(resume !== undefined ? { resume } : {}),
    ...(options.continue !== undefined ? { continue: options.continue } : {}),
    ...(fork !== undefined ? { fork } : {}),
    ...(title !== undefined ? { title } : {}),
  });
  if (options.provider !== undefined) await controller.session.setProvider(options.provider);
  const screen = screenFor(output);
  controller.on((event) => {
    if (event.type === 'warning' || event.type === 'lock-lost') screen.warn(event.type === 'warning' ? event.message : event.notice);
  });
  const { cwd } = options;
  const writeFile =
    options.writeFile ??
    (cwd !== undefined
      ? async (name: string, text: string) => (await import('../../terminal/output-file.js')).writeOutputFile(cwd, name, text, { anywhere: options.writeOutsideCwd === true })
      : undefined);
  const base = builtinCommands.filter((c) => keep.includes(c.name));
  const context = createCommandContext({
    controller,
    screen,
    commands: commandSet(base, options.commands),
    prefix,
    helpNotes,
    ...(writeFile ? { writeFile } : {}),
    ...(options.version !== undefined ? { version: options.version } : {}),
  });
  return { controller, screen, context };
}

/** Shows the banner (the session, its message count, the autosave), and what a resumed or forked session holds. */
export function showOpened({ screen, controller }: OpenedHost): void {
  screen.status(`session ${controller.session.id} · ${plural(controller.session.messages.length, 'message')} · autosave ${controller.autosaveDescription}`);
  if (controller.opened === 'new') return;
  showResumed(screen, controller.session, new Date());
}

/**
 * Says in one line on `output` why the session could not be opened, in the host's words (no
 * command list yet: advice is given only as the host's own subcommand, when it has them),
 * closes the host's input, and gives the exit code (a bug is 1).
 */
export function refuse(output: NodeJS.WritableStream, err: unknown, options: unknown, close: () => void): number {
  output.write(`${errorLine(err, { host: hostOf(options) })}\n`);
  close();
  return err instanceof ChatkeepError ? err.exitCode : 1;
}

async function openSessionsFor(options: AdapterOptions): Promise<SessionManager> {
  if (options.home === undefined || options.cwd === undefined) {
    throw new UserError('The adapter needs `sessions`, or `home` and `cwd` to open them.', 'E_ADAPTER_OPTIONS');
  }
  const { openSessions } = await import('../../store/open.js');
  return openSessions({ ...options.open, home: options.home, cwd: options.cwd });
}
