/**
 * `chatkeep [options]`: checks every input before anything is created, opens (or creates)
 * the session, chooses the assistant, and hands over to the REPL loop.
 */
import { existsSync } from 'node:fs';
import { isatty } from 'node:tty';
import { builtinCommands } from '../../commands/index.js';
import { chooseProvider, createProvider, loadSystemPrompt, parseProviderName } from '../providers/index.js';
import { DEFAULT_AUTOSAVE_SPEC, isValidId, openSessions, parseAutosaveSpec, startAutosave } from '../index.js';
import { InvalidIdError, UnknownSessionError, UserError } from '../session/errors.js';
import type { Session, SessionManager } from '../session/types.js';
import type { CliCommand } from './cli-options.js';
import { formatRows, loadFormatting } from './format.js';
import { createTtyPrompter, nonInteractivePrompter } from './prompter.js';
import { runRepl } from './repl.js';
import type { Screen } from './screen.js';

/** What the process gives the REPL: only cli.ts reads `process`. */
export interface ChatEnvironment {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** File descriptor 0 when `terminal`: its loss is how a closed window shows. */
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  screen: Screen;
  version: string;
  signals: NodeJS.EventEmitter;
}

type ReplFlags = Extract<CliCommand, { kind: 'repl' }>['options'];

/** Starts the chat; resolves to the exit code. Throws `ChatkeepError`s for the CLI to report. */
export async function startChat(flags: ReplFlags, environment: ChatEnvironment): Promise<number> {
  const { home, cwd, env, screen } = environment;
  // Everything that can be checked without the data directory is checked first, so bad
  // input creates nothing (not even the home directory).
  const id = flags['session-id'];
  if (id !== undefined && !isValidId(id)) throw new InvalidIdError(id);
  const flagSchedule = flags.autosave !== undefined ? parseAutosaveSpec(flags.autosave) : undefined;
  if (flags.provider !== undefined) parseProviderName(flags.provider);
  if (flags.resume && !screen.terminal) {
    throw new UserError('--resume needs an interactive terminal: pass --session-id ID instead (IDs: chatkeep sessions list).', 'E_NOT_A_TTY');
  }
  const flagSystem = flags.system !== undefined ? await loadSystemPrompt(flags.system, cwd) : undefined;
  const homeExists = existsSync(home);
  if (id !== undefined && !homeExists) throw new UnknownSessionError(id);
  if ((flags.continue || flags.resume) && !homeExists) throw noSessionYet(cwd);

  const sessions = await openSessions({ home, cwd, env, redact: flags['no-redact'] !== true });
  const config = await sessions.readConfig();
  const schedule = flagSchedule ?? parseAutosaveSpec(configString(config, 'autosave') ?? DEFAULT_AUTOSAVE_SPEC);
  const configSystem = flagSystem === undefined ? configString(config, 'system') : undefined;
  const system = flagSystem ?? (configSystem !== undefined ? await loadSystemPrompt(configSystem, cwd) : undefined);
  const prompterFor = screen.terminal ? createTtyPrompter.bind(null, environment.stdin) : () => nonInteractivePrompter;

  let resumedId = id;
  if (flags.continue) resumedId = await latestId(sessions, cwd);
  else if (flags.resume) resumedId = await pickId(sessions, prompterFor);
  let session: Session | undefined;
  if (resumedId !== undefined) session = await sessions.resume(resumedId);
  try {
    const choice = chooseProvider({
      flagProvider: flags.provider,
      flagModel: flags.model,
      session: session?.provider,
      config,
      env,
    });
    const provider = await createProvider(choice, env);
    const chosen = { name: choice.name, model: choice.model };
    const opened = session ?? (await sessions.create());
    session = opened;
    // Recorded while the banner is shown: the writes wait for a new session's lock and the disk,
    // and they queue on the session's mutex ahead of any chat turn.
    const ready = (async () => {
      if (opened.provider.name !== chosen.name || opened.provider.model !== chosen.model) {
        await opened.setProvider(chosen, choice.source);
      }
      if (system) await opened.setSystemPrompt(system.ref);
    })();
    // The REPL reports a failure at its first line; this keeps one before that from being unhandled.
    void ready.catch(() => undefined);
    return await runRepl({
      ready,
      input: environment.stdin,
      output: environment.stdout,
      screen,
      sessions,
      session: opened,
      resumed: resumedId !== undefined,
      provider,
      system: system?.text ?? null,
      commands: builtinCommands,
      prompter: (reader) => prompterFor(() => reader()?.rl),
      startAutosave: (s, onError) => startAutosave(s, schedule, { onError }),
      autosaveDescription: schedule.description,
      version: environment.version,
      signals: environment.signals,
      terminalGone: () => screen.terminal && !isatty(0),
    });
  } catch (err) {
    await session?.close().catch(() => {});
    throw err;
  }
}

/** A string setting (`autosave`, `system`) from project config, else user config. */
function configString(config: { user: Record<string, unknown>; project: Record<string, unknown> }, key: string): string | undefined {
  for (const [where, layer] of [['project', config.project], ['user', config.user]] as const) {
    const value = layer[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new UserError(`The ${where} config key \`${key}\` must be a string: fix config.json.`, 'E_CONFIG');
    return value;
  }
  return undefined;
}

function noSessionYet(cwd: string): UserError {
  return new UserError(`No session to resume in ${cwd} yet. Start one with: chatkeep`, 'E_NO_SESSION');
}

async function latestId(sessions: SessionManager, cwd: string): Promise<string> {
  const latest = await sessions.latest();
  if (!latest) throw noSessionYet(cwd);
  return latest.id;
}

async function pickId(
  sessions: SessionManager,
  prompterFor: (reader: () => undefined) => ReturnType<typeof createTtyPrompter>,
): Promise<string> {
  const rows = await sessions.list({ all: false });
  if (rows.length === 0) throw noSessionYet(sessions.project.path);
  await loadFormatting();
  const lines = formatRows(rows, { projectPath: sessions.project.path, now: new Date() });
  const index = await prompterFor(() => undefined).pick(lines, 'Resume which session?');
  // Cancelling is not a failure: exit 0, having created nothing.
  if (index < 0) throw new UserError('No session picked. Start a new one with: chatkeep', 'E_CANCELLED', 0);
  return rows[index]!.id;
}
