/**
 * The REPL loop: reads lines, dispatches slash commands or chat turns, renders results, and
 * leaves the same way however it is asked to (/quit, Ctrl-D, Ctrl-C twice, SIGTERM, SIGHUP).
 * Input and output are injected streams; nothing here reads the environment.
 */
import type { EventEmitter } from 'node:events';
import type { Provider } from '../providers/types.js';
import { ReadOnlySessionError, UserError } from '../session/errors.js';
import type { Autosave, ConfigSource, SaveResult, Session, SessionManager } from '../session/types.js';
import { createChatControls, type ChatFactories } from '../repl/chat-controls.js';
import { runChatTurn } from './chat-turn.js';
import { createClipboard, type Clipboard } from '../terminal/clipboard.js';
import { offerCompaction, runCompaction } from './compact-turn.js';
import { completeLine } from '../repl/complete.js';
import { keepDraft, keepUnsent, offerDraft } from './draft.js';
import { formatRows, loadFormatting, loadRelativeTime, plural, rowWidth } from '../terminal/format.js';
import { finish, finishUnsaved, showResumed } from '../repl/leave.js';
import { createLineReader, type LineReader } from './line-reader.js';
import type { MarkdownRenderer } from './markdown.js';
import { followLoss } from '../repl/lost-lock.js';
import { parseSlashCommand } from '../repl/parse-slash-command.js';
import { describeReplError } from '../terminal/report-error.js';
import type { Screen } from '../terminal/screen.js';
import type { BrowseOutcome, CommandContext, CommandResult, SlashCommand } from '../repl/types.js';

/** Everything the loop needs, built by the CLI (or a test). */
export interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  screen: Screen;
  sessions: SessionManager;
  session: Session;
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
  /** Starts autosave for a session: after the first prompt is shown, and again after /load. */
  startAutosave(session: Session, onError: (err: unknown) => void): Autosave;
  /** The schedule for the banner (`every 5 min`, `off`). */
  autosaveDescription: string;
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
  /** False with `--no-persist`: the session is in memory, commands that need a store refuse. */
  persist?: boolean;
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
  const { screen, sessions, commands } = options;
  const now = options.now ?? (() => new Date());
  let session = options.session;
  const warnings: string[] = [];
  let autosaveWarned = false;
  const startAutosave = (s: Session): Autosave =>
    options.startAutosave(s, (err) => {
      if (autosaveWarned) return;
      autosaveWarned = true;
      warnings.push(`Autosave failed (${err instanceof Error ? err.message : String(err)}); /save and /quit still save.`);
    });
  // Started once the first prompt is up: loading the timer's library is not needed to show it.
  let autosave: Autosave | undefined;
  let ready = options.ready;
  // date-fns is needed for relative times only: at once when resuming, else after the first prompt.
  let formatting: Promise<void> | undefined = options.resumed ? loadRelativeTime() : undefined;
  let markdown: Promise<MarkdownRenderer | undefined> | undefined;
  const loadMarkdown = (): Promise<MarkdownRenderer | undefined> | undefined =>
    options.loadMarkdown?.().catch((err: unknown) => {
      warnings.push(`Replies are shown as plain text: the Markdown renderer did not load (${describeReplError(err)}).`);
      return undefined;
    });
  // A resumed transcript is drawn as live replies are: the renderer is needed before the first prompt.
  if (options.resumed) markdown = loadMarkdown();
  await formatting;
  let stopWarnings = session.onWarning((message) => warnings.push(message));

  const persistent = options.persist !== false;
  screen.status(
    persistent
      ? `chatkeep ${options.version} · session ${session.id} · ${options.provider.label} · autosave ${options.autosaveDescription}`
      : `chatkeep ${options.version} · not saved: --no-persist writes nothing · ${options.provider.label}`,
  );
  screen.status('Type a message, or /help for commands.');
  if (options.resumed) showResumed(screen, session, now(), (await markdown)?.render);
  for (const notice of options.notices ?? []) screen.warn(notice);

  let history: string[] = [];
  if (screen.terminal) history = await sessions.history.load().catch(() => []);
  let reader: LineReader | undefined;
  // Aborted on the way out, so that a browser open at that moment closes.
  const leaving = new AbortController();
  const browse = options.browse;
  const ctx: CommandContext = {
    sessions,
    session,
    browse: browse && ((heading) => browse({ heading, live: session, signal: leaving.signal })),
    commands,
    now,
    formatRows: (rows, currentId) => formatRows(rows, { currentId, projectPath: sessions.project.path, now: now(), width: rowWidth(screen, false) }),
    highlight: (text) => screen.color.inverse(text),
    columns: () => screen.columns(),
    chat: createChatControls(
      () => session,
      { provider: options.provider, system: options.system ?? null, ...(options.providerSource ? { providerSource: options.providerSource } : {}) },
      options.factories ?? refusingFactories,
    ),
    clipboard: options.clipboard ?? createClipboard(screen, {}),
    autosave: () => autosave,
    persistent,
    version: options.version,
    writeFile: options.writeFile ?? (() => Promise.reject(new UserError('This chat cannot write files.', 'E_NO_FILES'))),
  };

  /** Makes `next` the live session (autosave, warnings, commands follow); closes the old one, saving it unless its lock was lost. */
  const adopt = async (next: Session): Promise<SaveResult | undefined> => {
    await autosave?.stop().catch(() => {});
    stopWarnings();
    const closed = await session.close().catch((err: unknown) => {
      screen.warn(`Could not close ${session.id}: ${describeReplError(err)}`);
      return undefined;
    });
    session = next;
    ctx.session = next;
    autosave = startAutosave(next);
    stopWarnings = next.onWarning((message) => warnings.push(message));
    return closed;
  };
  /** The lock was lost: go on in the session taken back, or in a fork of it. */
  const goOnAfterLoss = async (): Promise<void> => {
    const { session: next, notice } = await followLoss(sessions, session);
    if (next !== session) await adopt(next);
    screen.warn(notice);
  };

  let turn: AbortController | undefined;
  // Said once, the first time redaction changes a line: after that the user knows.
  let redactionExplained = false;
  const explainRedaction = (note: string): void => {
    if (redactionExplained) return;
    redactionExplained = true;
    screen.status(note);
  };
  let quitting = false;
  let atPrompt = false;
  let armed = false;
  const leave = (): void => {
    quitting = true;
    turn?.abort();
    leaving.abort();
    reader?.close();
  };
  /**
   * The terminal went away (its window was closed: SIGHUP, reads failing, or both, in either
   * order). Leaves as /quit does: a streaming reply stops and is kept, an open browser is
   * cancelled, the session is saved and released; text goes only where it can still be read.
   */
  let hungUp = false;
  const hangUp = (): void => {
    // Once: closing the reader on a dead terminal reports the terminal's error again.
    if (hungUp) return;
    hungUp = true;
    screen.hangUp();
    leave();
  };
  // A dead terminal shows as an 'error' of the input (setRawMode EIO), readline's while it reads
  // and the input's own afterwards: unheard, either would end the process before anything is saved.
  options.input.on('error', hangUp);
  reader = createLineReader({
    input: options.input,
    output: options.output,
    terminal: screen.terminal,
    prompt: screen.color.cyan('› '),
    history,
    onInputError: hangUp,
    complete: (line) => completeLine(line, commands, ctx),
    onInterrupt: (line) => {
      if (turn) return turn.abort();
      if (line === '' && armed) return leave();
      // A typed line is cleared (and kept as the draft if the next Ctrl-C leaves).
      if (line !== '') reader?.clearLine();
      armed = true;
      screen.raw('\n');
      screen.status('(To leave, press Ctrl-C again, Ctrl-D, or type /quit.)');
      reader?.rl.prompt();
    },
  });

  const onSignal = (): void => leave();
  const onPipedInterrupt = (): void => (turn ? turn.abort() : leave());
  options.signals?.on('SIGTERM', onSignal);
  options.signals?.on('SIGHUP', hangUp);
  if (!screen.terminal) options.signals?.on('SIGINT', onPipedInterrupt);
  if (options.resumed) offerDraft(screen, session, reader);

  /** One turn: what the user typed (or, with `resend`, the last question again) and the reply. */
  const chat = async (text: string, signal: AbortSignal, resend: boolean): Promise<unknown> => {
    const { provider, system } = ctx.chat;
    const render = await markdown;
    return runChatTurn({
      session,
      provider,
      text,
      screen,
      signal,
      system,
      resend,
      onRedacted: explainRedaction,
      persistent,
      ...(render ? { markdown: render } : {}),
    });
  };
  /** Runs `work` as the current turn (Ctrl-C stops it, typing is held); a failure is one line. Resolves true when it succeeded. */
  const inTurn = async (work: (signal: AbortSignal) => Promise<void>, describe = describeReplError): Promise<boolean> => {
    turn = new AbortController();
    reader?.hold();
    try {
      await work(turn.signal);
      return true;
    } catch (err) {
      const said = describe(err);
      if (said !== '') screen.error(said);
      return false;
    } finally {
      turn = undefined;
    }
  };
  /** `/compact` (or `--auto-compact`, whose line is not command output): the summary request is a turn of its own. */
  const compact = (focus: string | null, auto: boolean): Promise<boolean> =>
    inTurn(async (signal) => {
      const { line } = await runCompaction({ session, provider: ctx.chat.provider, system: ctx.chat.system, focus, screen, signal, persistent });
      (auto ? screen.status : screen.info)(line);
    }, (err) => describeReplError(err).replace(/^chatkeep: /, 'chatkeep: /compact failed, nothing changed: '));
  const ask = async (text: string, resend = false): Promise<void> => {
    const asked = { session, count: session.messages.length };
    // Nothing of it stored (the store unreachable, the lock lost and not taken back): the line is
    // not lost, it waits at the prompt to be sent again; the failure and that are one line.
    const unsent = (): boolean => !resend && session === asked.session && session.messages.length === asked.count;
    let why = '';
    const answered = await inTurn(async (signal) => {
      if (session.readOnly) await goOnAfterLoss();
      const before = session.messages.length;
      await chat(text, signal, resend).catch(async (err: unknown) => {
        // The loss was found by the turn's first write, so nothing of the turn was stored: it runs again where the conversation goes on.
        if (!(err instanceof ReadOnlySessionError) || session.messages.length !== before) throw err;
        await goOnAfterLoss();
        await chat(text, signal, resend);
      });
    }, (err) => {
      why = describeReplError(err);
      return unsent() ? '' : why;
    });
    if (answered) await offerCompaction(session.messages, screen, options.autoCompact ? () => compact(null, true) : undefined);
    else if (unsent()) keepUnsent(screen, text, why);
  };


  try {
    for (;;) {
      for (const warning of warnings.splice(0)) screen.warn(warning);
      if (quitting) break;
      // Leaving from a visible prompt (Ctrl-D, Ctrl-C twice, a signal) needs a newline after it.
      const prompted = screen.terminal && !reader.ended;
      const reading = reader.read();
      formatting ??= loadRelativeTime();
      markdown ??= loadMarkdown();
      autosave ??= startAutosave(session);
      const line = await reading;
      if (ready) {
        await ready.catch((err: unknown) => warnings.push(describeReplError(err)));
        ready = undefined;
      }
      atPrompt = line === null && prompted;
      // Warnings that arrived while the user was typing: shown now rather than over the typing.
      for (const warning of warnings.splice(0)) screen.warn(warning);
      if (line === null || quitting) break;
      if (line.trim() !== '') armed = false;
      if (screen.terminal && line.trim() !== '') sessions.history.append(line).catch(() => {});
      // A draft put back at the prompt has been sent or replaced: it must not come back.
      if (screen.terminal && line.trim() !== '' && session.draft !== null) await session.setDraft(null).catch(() => {});
      const parsed = parseSlashCommand(line, commands);
      if (parsed.kind === 'empty') continue;
      if (parsed.kind === 'unknown') {
        const hint = parsed.suggestion ? ` Did you mean /${parsed.suggestion}?` : '';
        screen.error(`Unknown command /${parsed.name}. Type /help.${hint}`);
        continue;
      }
      if (parsed.kind === 'chat') {
        await ask(parsed.text);
        continue;
      }
      if (parsed.command.needsStore && !persistent) {
        screen.error(`/${parsed.command.name} needs a stored session, and this chat stores nothing (--no-persist). Start chatkeep without it to keep a chat.`);
        continue;
      }
      let result: CommandResult;
      try {
        // Tables (string-width) load with the first command, not on the way to the first reply.
        await loadFormatting();
        result = await parsed.command.run(ctx, parsed.args);
      } catch (err) {
        screen.error(describeReplError(err));
        continue;
      }
      if (result.type === 'quit') break;
      if (result.type === 'retry') {
        screen.status(result.content);
        await ask('', true);
      } else if (result.type === 'compact') {
        await compact(result.focus, false);
      } else if (result.type === 'message') {
        if (result.level === 'info') screen.info(result.content);
        else if (result.level === 'warning') screen.warn(result.content);
        else screen.error(result.content);
      } else if (result.type === 'switch') {
        const closed = await adopt(result.session);
        screen.info(closed?.saved ? `Saved ${closed.id} (${plural(closed.messageCount, 'message')}). ${result.content}` : result.content);
        showResumed(screen, session, now(), (await markdown)?.render);
        offerDraft(screen, session, reader);
      }
    }
  } finally {
    reader.close();
  }
  if (options.terminalGone?.()) hangUp();
  if (atPrompt) screen.raw('\n');
  for (const warning of warnings.splice(0)) screen.warn(warning);
  try {
    await keepDraft(screen, session, reader);
    return persistent
      ? await finish(screen, sessions, session, autosave, stopWarnings)
      : await finishUnsaved(screen, session, autosave, stopWarnings);
  } finally {
    // Only now: a second SIGTERM while saving must not kill the process half-way.
    options.signals?.off('SIGTERM', onSignal);
    options.signals?.off('SIGHUP', hangUp);
    options.input.off('error', hangUp);
    options.signals?.off('SIGINT', onPipedInterrupt);
  }
}

/** Without factories (an embedder's REPL), switching assistant or prompt is refused in one line. */
const refusingFactories: ChatFactories = {
  makeProvider: () => Promise.reject(new UserError('Switching assistant is not available in this REPL.', 'E_NO_SWITCH')),
  readSystemPrompt: () => Promise.reject(new UserError('Switching the system prompt is not available in this REPL.', 'E_NO_SWITCH')),
};
