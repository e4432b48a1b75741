/**
 * chatkeep's turns: a question and its streamed reply, `/retry`, `/compact` (and
 * `--auto-compact`). One turn runs at a time; Ctrl-C (or leaving) aborts it; a failure is one
 * line; a lost lock found by the turn's first write is followed through the controller and
 * the turn runs again where the conversation goes on.
 */
import type { SessionController } from '../../repl/controller.js';
import type { ChatControls } from '../../repl/chat-controls.js';
import { ReadOnlySessionError } from '../../session/api/errors.js';
import { errorLine } from '../../repl/host-words.js';
import type { Screen } from '../../terminal/screen.js';
import { runChatTurn } from './chat-turn.js';
import { offerCompaction, runCompaction } from './compact-turn.js';
import { keepUnsent } from './draft.js';
import type { MarkdownRenderer } from './markdown.js';

export interface TurnOptions {
  controller: SessionController;
  screen: Screen;
  chat: ChatControls;
  persistent: boolean;
  autoCompact: boolean;
  /** The Markdown renderer once loaded (undefined: replies are shown raw). */
  markdown(): Promise<MarkdownRenderer | undefined> | undefined;
  /** Typing is held while a turn runs. */
  hold(): void;
}

export interface Turns {
  /** Sends `text` (or, with `resend`, the last question again) and shows the reply. */
  ask(text: string, resend?: boolean): Promise<void>;
  /** Compacts the conversation (`/compact FOCUS`, or automatically: then its line is a status line). */
  compact(focus: string | null, auto: boolean): Promise<boolean>;
  /** Stops the running turn, if any; false when none runs. */
  abort(): boolean;
}

export function createTurns(options: TurnOptions): Turns {
  const { controller, screen, chat, persistent } = options;
  let turn: AbortController | undefined;
  // Said once, the first time redaction changes a line: after that the user knows.
  let redactionExplained = false;
  const explainRedaction = (note: string): void => {
    if (redactionExplained) return;
    redactionExplained = true;
    screen.status(note);
  };
  /** The lock was lost: go on in the session taken back, or in a fork of it. */
  const goOnAfterLoss = async (): Promise<void> => screen.warn(await controller.recover());

  /** A failure as the chat says it: chatkeep's name, then the error in its words. */
  const describeFailure = (err: unknown): string => `chatkeep: ${errorLine(err, { host: controller.host })}`;

  /** Runs `work` as the current turn (Ctrl-C stops it, typing is held); a failure is one line. Resolves true when it succeeded. */
  const inTurn = async (work: (signal: AbortSignal) => Promise<void>, describe = describeFailure): Promise<boolean> => {
    turn = new AbortController();
    options.hold();
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

  const reply = async (text: string, signal: AbortSignal, resend: boolean): Promise<unknown> => {
    const render = await options.markdown();
    return runChatTurn({
      session: controller.session,
      provider: chat.provider,
      text,
      screen,
      signal,
      system: chat.system,
      resend,
      onRedacted: explainRedaction,
      persistent,
      ...(render ? { markdown: render } : {}),
    });
  };

  const compact = (focus: string | null, auto: boolean): Promise<boolean> =>
    inTurn(async (signal) => {
      const { line } = await runCompaction({ session: controller.session, provider: chat.provider, system: chat.system, focus, screen, signal, persistent });
      (auto ? screen.status : screen.info)(line);
    }, (err) => `chatkeep: /compact failed, nothing changed: ${errorLine(err, { host: controller.host })}`);

  const ask = async (text: string, resend = false): Promise<void> => {
    const asked = { session: controller.session, count: controller.session.messages.length };
    // Nothing of it stored (the store unreachable, the lock lost and not taken back): the line is
    // not lost, it waits at the prompt to be sent again; the failure and that are one line.
    const unsent = (): boolean => !resend && controller.session === asked.session && controller.session.messages.length === asked.count;
    let why = '';
    const answered = await inTurn(async (signal) => {
      if (controller.session.readOnly) await goOnAfterLoss();
      const before = controller.session.messages.length;
      await reply(text, signal, resend).catch(async (err: unknown) => {
        // The loss was found by the turn's first write, so nothing of the turn was stored: it runs again where the conversation goes on.
        if (!(err instanceof ReadOnlySessionError) || controller.session.messages.length !== before) throw err;
        await goOnAfterLoss();
        await reply(text, signal, resend);
      });
    }, (err) => {
      why = describeFailure(err);
      return unsent() ? '' : why;
    });
    if (answered) await offerCompaction(controller.session.messages, screen, options.autoCompact ? () => compact(null, true) : undefined);
    else if (unsent()) keepUnsent(screen, text, why);
  };

  return {
    ask,
    compact,
    abort: () => {
      if (!turn) return false;
      turn.abort();
      return true;
    },
  };
}
