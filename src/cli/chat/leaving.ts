/**
 * How chatkeep's REPL is left, the same way however it is asked to (/quit, Ctrl-D, Ctrl-C
 * twice, SIGTERM, SIGHUP, a terminal that went away): the running turn stops and is kept, an
 * open browser is cancelled, the reader closes; then the unsent line is kept and the
 * controller closes the session and writes the exit lines.
 */
import type { EventEmitter } from 'node:events';
import type { SessionController } from '../../repl/controller.js';
import { showLines } from '../../repl/render.js';
import type { Screen } from '../../terminal/screen.js';
import { keepDraft } from './draft.js';
import type { LineReader } from './line-reader.js';

export interface LeavingOptions {
  screen: Screen;
  input: NodeJS.ReadableStream;
  /** Where SIGTERM/SIGHUP (and SIGINT when piped) arrive: `process` in the CLI. */
  signals?: EventEmitter | undefined;
  /** Stops the running turn; false when none runs. */
  abortTurn(): boolean;
  closeReader(): void;
}

export interface Leaving {
  /** True once leaving was asked for. */
  readonly quitting: boolean;
  /** Asks to leave: the turn stops, the browser closes, the reader ends. */
  leave(): void;
  /** The terminal went away: from now on text goes only where it can still be read; then leave. */
  hangUp(): void;
  /** Aborted on the way out, so that a browser open at that moment closes. */
  readonly signal: AbortSignal;
  /** Stops listening for signals (only once the session is closed: a second SIGTERM must not kill a save half-way). */
  detach(): void;
}

export function watchLeaving(options: LeavingOptions): Leaving {
  const { screen, input, signals } = options;
  const leaving = new AbortController();
  let hungUp = false;
  const leave = (): void => {
    options.abortTurn();
    leaving.abort();
    options.closeReader();
  };
  const hangUp = (): void => {
    // Once: closing the reader on a dead terminal reports the terminal's error again.
    if (hungUp) return;
    hungUp = true;
    screen.hangUp();
    leave();
  };
  const onPipedInterrupt = (): void => {
    if (!options.abortTurn()) leave();
  };
  // A dead terminal shows as an 'error' of the input (setRawMode EIO), readline's while it reads
  // and the input's own afterwards: unheard, either would end the process before anything is saved.
  input.on('error', hangUp);
  signals?.on('SIGTERM', leave);
  signals?.on('SIGHUP', hangUp);
  if (!screen.terminal) signals?.on('SIGINT', onPipedInterrupt);
  return {
    get quitting() {
      return leaving.signal.aborted;
    },
    leave,
    hangUp,
    signal: leaving.signal,
    detach: () => {
      signals?.off('SIGTERM', leave);
      signals?.off('SIGHUP', hangUp);
      input.off('error', hangUp);
      signals?.off('SIGINT', onPipedInterrupt);
    },
  };
}

/** Keeps the unsent line, closes the session through the controller and shows the exit lines; resolves to the exit code. */
export async function finishChat(screen: Screen, controller: SessionController, reader: LineReader): Promise<number> {
  await keepDraft(screen, controller.session, reader);
  const { code, lines } = await controller.leave();
  showLines(screen, lines);
  return code;
}
