/**
 * `chatkeep [options]`: checks every input before anything is created, opens (or creates)
 * the session, chooses the assistant, and hands over to the REPL loop.
 */
import { isatty } from 'node:tty';
import { builtinCommands } from '../repl/commands/index.js';
import { chooseProvider, createProvider, DEFAULT_MODELS, loadSystemPrompt, parseProviderName, type LoadedSystemPrompt } from '../providers/index.js';
import { DEFAULT_AUTOSAVE_SPEC, openSessions, parseAutosaveSpec } from '../index.js';
import { UserError } from '../session/api/errors.js';
import { noSuchSession } from '../session/api/ids.js';
import type { ConfigFiles, ConfigSource } from '../session/api/data.js';
import type { Session } from '../session/api/session-api.js';
import { createClipboard } from '../terminal/clipboard.js';
import type { CliCommand } from './options.js';
import { parseForkAt } from '../repl/fork-args.js';
import { unknownModelNote } from '../models/unknown-model.js';
import { openBrowser, type BrowseOptions } from '../repl/browser.js';
import { runRepl } from './chat/repl.js';
import { noSessionYet, SessionController } from '../repl/controller.js';
import { PLAIN_CHATKEEP } from './chatkeep-host.js';
import type { Screen } from '../terminal/screen.js';
import type { BrowseOutcome } from '../repl/types.js';
import { sessionsMayExist } from '../store/choice.js';
import type { StoreEnvironment } from './environment.js';


/** What the process gives the REPL: only cli.ts reads `process`. */
export interface ChatEnvironment extends StoreEnvironment {
  /** File descriptor 0 when `terminal`: its loss is how a closed window shows. */
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  screen: Screen;
  version: string;
  signals: NodeJS.EventEmitter;
  /** `-p`: the message to answer once (the screen is then a pipe's); no REPL. */
  ask?: string;
}

type ReplFlags = Extract<CliCommand, { kind: 'repl' }>['options'];

/** How `--resume` came: `chatkeep -r`, or `chatkeep sessions browse [--all]` (every project from the start). */
export interface ResumeHow {
  command: 'sessions browse' | '--resume';
  all: boolean;
}

/** Starts the chat; resolves to the exit code. Throws `ChatkeepError`s for the CLI to report. */
export async function startChat(flags: ReplFlags, environment: ChatEnvironment, how: ResumeHow = { command: '--resume', all: false }): Promise<number> {
  const { home, store, cwd, env, screen } = environment;
  // Everything that can be checked without the data directory is checked first, so bad
  // input creates nothing (not even the home directory). A session ID is the manager's to
  // check; without a data directory there is no manager, and no session either.
  const id = flags['session-id'];
  const forkId = flags.fork;
  const forkAt = flags.at !== undefined ? parseForkAt(flags.at) : undefined;
  const flagSchedule = flags.autosave !== undefined ? parseAutosaveSpec(flags.autosave) : undefined;
  if (flags.provider !== undefined) parseProviderName(flags.provider);
  if (flags.resume && !screen.terminal) {
    throw new UserError(`${how.command} needs an interactive terminal: pass --session-id ID instead.`, 'E_NOT_A_TTY', 2, { to: 'IDs:', run: ['sessions', 'list'] });
  }
  const persist = flags['no-persist'] !== true;
  const flagSystem = flags.system !== undefined ? await loadSystemPrompt(flags.system, cwd) : undefined;
  const homeExists = sessionsMayExist(environment);
  if (id !== undefined && !homeExists) throw noSuchSession(id);
  if (forkId !== undefined && !homeExists) throw noSuchSession(forkId);
  if ((flags.continue || flags.resume) && !homeExists) throw noSessionYet(cwd);

  const sessions = await openSessions({ home, store, cwd, env, redact: flags['no-redact'] !== true, persist });
  const config = await sessions.readConfig();
  // Nothing to save without a store: no timer either.
  const schedule = !persist
    ? parseAutosaveSpec('off')
    : (flagSchedule ?? parseAutosaveSpec(configValue(config, 'autosave', 'string')?.value ?? DEFAULT_AUTOSAVE_SPEC));
  // Read before any session is created, so a bad file creates nothing.
  const configSystemFile = flagSystem ? undefined : configValue(config, 'system', 'string');
  const configSystem = configSystemFile && { ...(await loadSystemPrompt(configSystemFile.value, cwd)), source: configSystemFile.where };
  const autoCompact = flags['auto-compact'] === true || configValue(config, 'autoCompact', 'boolean')?.value === true;
  const writeFile = async (name: string, text: string): Promise<string> => (await import('../terminal/output-file.js')).writeOutputFile(cwd, name, text);
  // The browser and its library load when it opens, never on the way to a prompt.
  const browse = async (request: Omit<BrowseOptions, 'sessions' | 'input' | 'output' | 'writeFile' | 'version' | 'color' | 'host'>) =>
    openBrowser({
      ...request,
      sessions,
      input: environment.stdin,
      output: environment.stdout,
      writeFile,
      version: environment.version,
      color: screen.color,
      host: environment.host ?? PLAIN_CHATKEEP,
    });

  // The browser's pick is made before anything opens; cancelling it opens nothing.
  const resumeId = flags.resume ? await pickId(() => browse({ heading: 'Resume which session?', all: how.all, signals: environment.signals }), screen) : id;
  const controllerOptions = { sessions, host: environment.host ?? PLAIN_CHATKEEP, persistent: persist, autosave: schedule };
  // What exists is opened first (its assistant is the one to choose); a new session only once the
  // assistant is made, so that a bad choice creates nothing. `--continue` with nothing to
  // continue is refused, as documented.
  let controller: SessionController | undefined =
    resumeId !== undefined || flags.continue || forkId !== undefined
      ? await SessionController.open({
          ...controllerOptions,
          ...(resumeId !== undefined ? { resume: resumeId } : {}),
          ...(flags.continue ? { continue: true, newWhenNone: false } : {}),
          // A fork reads its parent without taking its lock (it may be open elsewhere) and never writes to it.
          ...(forkId !== undefined ? { fork: { from: forkId, ...(forkAt !== undefined ? { at: forkAt } : {}) } } : {}),
        })
      : undefined;
  try {
    const choice = chooseProvider({
      flagProvider: flags.provider,
      flagModel: flags.model,
      session: controller?.session.provider,
      config,
      env,
    });
    const provider = await createProvider(choice, env, { watched: screen.terminal });
    const chosen = { name: choice.name, model: choice.model };
    controller ??= await SessionController.open(controllerOptions);
    const opened = controller.session;
    const notices: string[] = [];
    // Said once, at the start: the model's price or window is not in chatkeep's tables.
    const unknown = unknownModelNote(provider.model);
    if (unknown !== undefined) notices.push(unknown);
    const system = await chooseSystemPrompt(flagSystem, opened, configSystem, cwd, notices);
    // Recorded while the banner is shown: the writes wait for a new session's lock and the disk,
    // and they queue on the session's mutex ahead of any chat turn.
    const ready = (async () => {
      if (opened.provider.name !== chosen.name || opened.provider.model !== chosen.model) {
        await opened.setProvider(chosen, choice.source);
      }
      // The session records the prompt in effect: a new one, or none when the recorded one is gone.
      const recorded = opened.systemPrompt;
      if (recorded?.path !== system?.ref.path || recorded?.sha256 !== system?.ref.sha256) {
        await opened.setSystemPrompt(system?.ref ?? null, system?.source ?? 'session');
      }
    })();
    // The REPL reports a failure at its first line; this keeps one before that from being unhandled.
    void ready.catch(() => undefined);
    if (environment.ask !== undefined) {
      const { answerOnce } = await import('./chat/one-shot.js');
      return await answerOnce({ controller, screen, provider, system: system?.text ?? null, text: environment.ask, ready, notices, persistent: persist, signals: environment.signals });
    }
    return await runRepl({
      ready,
      input: environment.stdin,
      output: environment.stdout,
      screen,
      controller,
      resumed: controller.opened !== 'new',
      provider,
      providerSource: choice.source,
      system: system?.text ?? null,
      commands: builtinCommands,
      ...(screen.terminal ? { browse } : {}),
      version: environment.version,
      signals: environment.signals,
      notices,
      autoCompact,
      factories: {
        makeProvider: (name, model) => createProvider({ name, model: model ?? DEFAULT_MODELS[name], source: 'command' }, env, { watched: screen.terminal }),
        readSystemPrompt: (file) => loadSystemPrompt(file, cwd),
      },
      clipboard: createClipboard(screen, env),
      writeFile,
      // Markdown needs a terminal and colour; pipes, NO_COLOR and --raw get the text as written.
      ...(screen.terminal && screen.color.level > 0 && !flags.raw
        ? { loadMarkdown: async () => (await import('./chat/markdown.js')).loadMarkdown(screen.color, environment.stdout.columns || 80) }
        : {}),
      terminalGone: () => screen.terminal && !isatty(0),
    });
  } catch (err) {
    await controller?.session.close().catch(() => {});
    throw err;
  }
}

/** A setting (`autosave`, `system`: strings; `autoCompact`: a boolean) of type `type` from project config, else user config, and which one gave it; another type is a UserError. */
function configValue<T extends 'string' | 'boolean'>(
  config: ConfigFiles,
  key: string,
  type: T,
): { value: T extends 'string' ? string : boolean; where: 'project' | 'user' } | undefined {
  for (const [where, layer] of [['project', config.project], ['user', config.user]] as const) {
    const value = layer[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== type) throw new UserError(`The ${where} config key \`${key}\` must be a ${type}: fix config.json.`, 'E_CONFIG');
    return { value: value as T extends 'string' ? string : boolean, where };
  }
  return undefined;
}

/**
 * The system prompt, first match wins (as for the provider): `--system`, the one the resumed
 * session records (read again from its path: the session keeps only path and hash), then
 * config. A recorded prompt that cannot be read or has changed is said in `notices`.
 */
async function chooseSystemPrompt(
  flag: LoadedSystemPrompt | undefined,
  session: Session,
  fromConfig: (LoadedSystemPrompt & { source: ConfigSource }) | undefined,
  cwd: string,
  notices: string[],
): Promise<(LoadedSystemPrompt & { source: ConfigSource }) | undefined> {
  if (flag) return { ...flag, source: 'flag' };
  const recorded = session.systemPrompt;
  if (recorded) {
    try {
      const loaded = await loadSystemPrompt(recorded.path, cwd);
      if (loaded.ref.sha256 !== recorded.sha256) notices.push(`The system prompt ${recorded.path} changed since this session recorded it; the new text is used.`);
      return { ...loaded, source: recorded.source ?? 'session' };
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      notices.push(`The system prompt this session recorded (${recorded.path}) cannot be read now; the chat goes on without one. Set one with /system FILE.`);
      return undefined;
    }
  }
  return fromConfig;
}

/** The session the browser chose; cancelling is not a failure (exit 0, having created nothing). */
async function pickId(open: () => Promise<BrowseOutcome>, screen: Screen): Promise<string> {
  const { choice, notes } = await open();
  for (const note of notes) screen.status(note);
  if (choice.kind === 'cancel') throw new UserError('No session picked.', 'E_CANCELLED', 0, { to: 'Start a new one with:', run: [] });
  return choice.id;
}
