/**
 * `chatkeep -p PROMPT`: one question, one reply, then leave, as a script wants it. The reply
 * goes to stdout as it streams, plain (the screen is a pipe's: no spinner, no colour, no
 * banner); warnings, the token line, `Saved …` and the way back go to stderr. The turn is the
 * chat's own (chat-turn.ts), so what is stored is what the REPL would store.
 */
import type { EventEmitter } from 'node:events';
import type { Provider } from '../../models/types.js';
import type { SessionController } from '../../repl/controller.js';
import { errorLine } from '../../repl/host-words.js';
import { showLines } from '../../repl/render.js';
import { ChatkeepError } from '../../session/api/errors.js';
import type { Screen } from '../../terminal/screen.js';
import { runChatTurn } from './chat-turn.js';

/** The exit code of a reply stopped by a signal (Ctrl-C, SIGTERM, a hang-up): 128 + SIGINT, as shells report it. */
export const INTERRUPTED_EXIT = 130;

export interface OneShotOptions {
  controller: SessionController;
  /** A pipe's screen: replies on stdout, status lines on stderr. */
  screen: Screen;
  provider: Provider;
  system: string | null;
  /** The message: the prompt, and what was piped in after it. */
  text: string;
  /** The session's set-up writes (provider, system prompt), done before the question is stored. */
  ready: Promise<void>;
  /** Lines to show first (a recorded system prompt that changed, an unknown model). */
  notices: readonly string[];
  persistent: boolean;
  /** Where SIGINT, SIGTERM and SIGHUP arrive: each stops the reply, which is then stored interrupted. */
  signals?: EventEmitter;
}

/** Asks once and leaves; resolves to the exit code (0 answered, 130 interrupted, else the failure's). */
export async function answerOnce(options: OneShotOptions): Promise<number> {
  const { controller, screen, signals } = options;
  for (const notice of options.notices) screen.warn(notice);
  const turn = new AbortController();
  const stop = (): void => turn.abort();
  const caught = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const name of caught) signals?.on(name, stop);
  let code = 0;
  try {
    await options.ready.catch((err: unknown) => screen.warn(`chatkeep: ${errorLine(err, { host: controller.host })}`));
    const outcome = await runChatTurn({
      session: controller.session,
      provider: options.provider,
      text: options.text,
      screen,
      signal: turn.signal,
      system: options.system,
      persistent: options.persistent,
      onRedacted: (note) => screen.status(note),
    });
    if (outcome === 'interrupted') code = INTERRUPTED_EXIT;
  } catch (err) {
    screen.error(`chatkeep: ${errorLine(err, { host: controller.host })}`);
    code = err instanceof ChatkeepError ? err.exitCode : 1;
  }
  // Signals stay caught until the session is closed: a second one must not kill a save half-way.
  const left = await controller.leave();
  for (const name of caught) signals?.off(name, stop);
  showLines(screen, left.lines);
  return code === 0 ? left.code : code;
}
