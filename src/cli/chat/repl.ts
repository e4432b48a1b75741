/**
 * chatkeep's own REPL, a host of the component (src/repl/): reads lines, hands them to the
 * component's dispatch (slash commands, through the controller) or to a chat turn
 * (turns.ts), renders what comes back, and leaves as every host does (src/repl/leaving.ts).
 * Input and output are injected streams; nothing here reads the environment.
 */
import type { EventEmitter } from 'node:events';
import type { Provider } from '../../models/types.js';
import { UserError } from '../../session/api/errors.js';
import type { ConfigSource } from '../../session/api/data.js';
import type { Session } from '../../session/api/session-api.js';
import { createChatControls, type ChatFactories } from '../../repl/chat-controls.js';
import { createCommandContext } from '../../repl/context.js';
import { completeLine } from '../../repl/complete.js';
import type { SessionController } from '../../repl/controller.js';
import { dispatchLine } from '../../repl/dispatch.js';
import { showDone, showResumed } from '../../repl/render.js';
import type { BrowseOutcome, SlashCommand } from '../../repl/types.js';
import type { Clipboard } from '../../terminal/clipboard.js';
import { errorLine } from '../../repl/host-words.js';
import type { Screen } from '../../terminal/screen.js';
import { offerDraft } from './draft.js';
import { finishChat } from './leaving.js';
import { watchLeaving } from '../../repl/leaving.js';
import { createLineReader } from './line-reader.js';
import type { MarkdownRenderer } from './markdown.js';
import { createTurns } from './turns.js';

/** What /help says after the commands: what chatkeep's own chat does with other lines and keys. */
const CHAT_HELP_NOTES = [
  'Anything else is sent to the assistant (start with // to send a line beginning with /).',
  'Alt-Enter, Shift-Enter or \\ at the end of a line starts a new line; a paste of more than 3 lines shows as [pasted N lines].',
  'Ctrl-C or Esc stops a reply; Ctrl-C clears the line; twice, or Ctrl-D, quits (a half-typed line is kept for the next resume).',
];

/** Everything the loop needs, built by the CLI (or a test). */
export interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  screen: Screen;
  /** Owns the current session (switching, a lost lock, leaving) and writes the exit lines for chatkeep's own command. */
  controller: SessionController;
  /** True when the session was resumed (show what it holds). */
  resumed: boolean;
  provider: Provider;
  /** Where `provider` was chosen (shown by /status). */
  providerSource?: ConfigSource;
  system?: string | null;
  commands: readonly SlashCommand[];
  /**
   * Opens the session browser (a terminal only): `live` is the session of this chat, `signal`
   * is aborted when the REPL leaves (a hang-up, SIGTERM), which closes the browser as a cancel.
   */
  browse?: (request: { heading: string; live: Session; signal: AbortSignal }) => Promise<BrowseOutcome>;
  /**
   * Writes that must be done before the first line is handled (a new session's provider and
   * system prompt). The banner and prompt do not wait for them: they queue on the session's
   * mutex ahead of any chat turn, and a failure is shown as a warning.
   */
  ready?: Promise<void>;
  version: string;
  /** How `/provider`, `/model` and `/system` make what they switch to (default: they refuse). */
  factories?: ChatFactories;
  /** The terminal's clipboard for `/copy` (default: decided from an empty environment). */
  clipboard?: Clipboard;
  /** How `/export` writes the file it is given (default: it refuses). */
  writeFile?: (name: string, text: string) => Promise<string>;
  /** Lines to show once the session is open (a recorded system prompt that changed or is gone). */
  notices?: string[];
  /**
   * Loads the Markdown renderer for replies (a terminal with colour, no `--raw`). Called once the
   * first prompt is up, so the parser never delays it; without it replies are shown raw.
   */
  loadMarkdown?: () => Promise<MarkdownRenderer>;
  /** `--auto-compact`: compact without asking once the context passes the threshold (default: offer it). */
  autoCompact?: boolean;
  /** Where SIGTERM/SIGHUP (and SIGINT when piped) arrive: `process` in the CLI. */
  signals?: EventEmitter;
  /** True once the terminal itself is gone (its window closed), as opposed to Ctrl-D. */
  terminalGone?: () => boolean;
  now?: () => Date;
}

/** Runs the REPL until the user leaves; resolves to the exit code. */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { screen, controller, commands } = options;
  const { sessions } = controller;
  const now = options.now ?? (() => new Date());
  const persistent = controller.persistent;
  // Shown at the next prompt, never over the user's typing.
  const warnings: string[] = [];
  controller.on((event) => {
    if (event.type === 'warning') warnings.push(event.message);
  });
  let ready = options.ready;
  let markdown: Promise<MarkdownRenderer | undefined> | undefined;
  const loadMarkdown = (): Promise<MarkdownRenderer | undefined> | undefined =>
    options.loadMarkdown?.().catch((err: unknown) => {
      warnings.push(`Replies are shown as plain text: the Markdown renderer did not load (${errorLine(err, { host: controller.host })}).`);
      return undefined;
    });
  // A resumed transcript is drawn as live replies are: the renderer is needed before the first prompt.
  if (options.resumed) markdown = loadMarkdown();

  screen.status(
    persistent
      ? `chatkeep ${options.version} · session ${controller.session.id} · ${options.provider.label} · autosave ${controller.autosaveDescription}`
      : `chatkeep ${options.version} · not saved: --no-persist writes nothing · ${options.provider.label}`,
  );
  screen.status('Type a message, or /help for commands.');
  if (options.resumed) showResumed(screen, controller.session, now(), (await markdown)?.render);
  for (const notice of options.notices ?? []) screen.warn(notice);

  const history = screen.terminal ? await sessions.history.load().catch(() => []) : [];
  const chat = createChatControls(
    () => controller.session,
    { provider: options.provider, system: options.system ?? null, ...(options.providerSource ? { providerSource: options.providerSource } : {}) },
    options.factories ?? refusingFactories,
  );
  let hold = (): void => {};
  const turns = createTurns({ controller, screen, chat, persistent, autoCompact: options.autoCompact === true, markdown: () => markdown, hold: () => hold() });
  let closeReader = (): void => {};
  const leaving = watchLeaving({
    screen,
    input: options.input,
    signals: options.signals,
    leave: () => {
      turns.abort();
      closeReader();
    },
    interrupt: () => turns.abort(),
  });
  const browse = options.browse;
  const context = createCommandContext({
    controller,
    screen,
    commands,
    chat,
    ...(browse ? { browse: (heading: string) => browse({ heading, live: controller.session, signal: leaving.signal }) } : {}),
    // A list to pick from (/rewind), loaded when it opens; a picked message comes back at the prompt as the draft.
    ...(screen.terminal
      ? {
          pick: async (heading: string, rows: readonly string[]) =>
            (await import('../../repl/pick-one.js')).pickOne({ input: options.input, output: options.output, heading, rows, signal: leaving.signal }),
          draftAtPrompt: true,
        }
      : {}),
    ...(options.clipboard ? { clipboard: options.clipboard } : {}),
    writeFile: options.writeFile ?? (() => Promise.reject(new UserError('This chat cannot write files.', 'E_NO_FILES'))),
    version: options.version,
    now,
    helpNotes: CHAT_HELP_NOTES,
  });

  let atPrompt = false;
  let armed = false;
  const reader = createLineReader({
    input: options.input,
    output: options.output,
    terminal: screen.terminal,
    prompt: screen.color.cyan('› '),
    history,
    onInputError: leaving.hangUp,
    complete: (line) => completeLine(line, commands, context),
    // Esc stops a reply as Ctrl-C does (the same abort, so the same notice and stored result).
    onEscape: () => void turns.abort(),
    onInterrupt: (line) => {
      if (turns.abort()) return;
      if (line === '' && armed) return leaving.leave();
      // A typed line is cleared (and kept as the draft if the next Ctrl-C leaves).
      if (line !== '') reader.clearLine();
      armed = true;
      screen.raw('\n');
      screen.status('(To leave, press Ctrl-C again, Ctrl-D, or type /quit.)');
      reader.rl.prompt();
    },
  });
  hold = () => reader.hold();
  closeReader = () => reader.close();
  if (options.resumed) offerDraft(screen, controller.session, reader);

  try {
    for (;;) {
      for (const warning of warnings.splice(0)) screen.warn(warning);
      if (leaving.quitting) break;
      // Leaving from a visible prompt (Ctrl-D, Ctrl-C twice, a signal) needs a newline after it.
      const prompted = screen.terminal && !reader.ended;
      const reading = reader.read();
      markdown ??= loadMarkdown();
      // Started once the first prompt is up: loading the timer's library is not needed to show it.
      controller.startAutosave();
      const line = await reading;
      if (ready) {
        await ready.catch((err: unknown) => warnings.push(`chatkeep: ${errorLine(err, { host: controller.host })}`));
        ready = undefined;
      }
      atPrompt = line === null && prompted;
      // Warnings that arrived while the user was typing: shown now rather than over the typing.
      for (const warning of warnings.splice(0)) screen.warn(warning);
      if (line === null || leaving.quitting) break;
      if (line.trim() !== '') armed = false;
      if (screen.terminal && line.trim() !== '') sessions.history.append(line).catch(() => {});
      // A draft put back at the prompt has been sent or replaced: it must not come back.
      if (screen.terminal && line.trim() !== '' && controller.session.draft !== null) await controller.session.setDraft(null).catch(() => {});
      const done = await dispatchLine(line, { controller, context });
      if (done.kind === 'quit') break;
      if (done.kind === 'chat') await turns.ask(done.text);
      else if (done.kind === 'retry') {
        screen.status(done.note);
        await turns.ask('', true);
      } else if (done.kind === 'compact') await turns.compact(done.focus, false);
      else if (done.kind === 'done') {
        showDone(screen, done, controller.session, now(), (await markdown)?.render);
        if (done.switched) offerDraft(screen, controller.session, reader);
      }
    }
  } finally {
    reader.close();
  }
  if (options.terminalGone?.()) leaving.hangUp();
  if (atPrompt) screen.raw('\n');
  for (const warning of warnings.splice(0)) screen.warn(warning);
  try {
    return await finishChat(screen, controller, reader);
  } finally {
    leaving.detach();
  }
}

/** Without factories (an embedder's REPL), switching assistant or prompt is refused in one line. */
const refusingFactories: ChatFactories = {
  makeProvider: () => Promise.reject(new UserError('Switching assistant is not available in this REPL.', 'E_NO_SWITCH')),
  readSystemPrompt: () => Promise.reject(new UserError('Switching the system prompt is not available in this REPL.', 'E_NO_SWITCH')),
};
