/**
 * How every host is left, the same way however it is asked to (SIGTERM, SIGHUP, a terminal
 * that went away, and in chatkeep's chat also /quit, Ctrl-D and Ctrl-C when piped): the host is
 * asked to end its loop, whose end saves the session through the controller. A hang-up first
 * sends the text that follows only where it can still be read (`Screen.hangUp`).
 */
import type { EventEmitter } from 'node:events';
import { closeTerminalsAtExit, terminalDescriptors } from '../terminal/dead-terminal.js';
import type { Screen } from '../terminal/screen.js';

export interface LeavingOptions {
  screen: Screen;
  /** The host's input: its `'error'` is how a terminal that went away shows. */
  input: NodeJS.ReadableStream;
  /** The host's output, when a failed write of it is a hang-up too (a terminal's). */
  output?: NodeJS.WritableStream;
  /** Where SIGTERM and SIGHUP arrive (`process` in a program); SIGINT too with `interrupt`. */
  signals?: EventEmitter | undefined;
  /** Ends the host's loop (its end leaves through the controller). */
  leave(): void;
  /** What a hang-up does after `screen.hangUp()` (default `leave`): a host may save before it lets go of the dead terminal. */
  hangUp?(): void;
  /**
   * True when the input's errors must reach nobody else: `node:readline` (and `node:repl`, built
   * on it) passes them on as the interface's own, which a host's `for await (const line of rl)`
   * throws and a REPL's unheard 'error' throws, ending the host before the save. A terminal's
   * input that fails is a terminal gone: a hang-up, nothing more.
   */
  keepInputErrors?: boolean;
  /** SIGINT with no terminal (piped input): stops the running work and says so; false: nothing ran, so it leaves. */
  interrupt?(): boolean;
}

export interface LeavingWatch {
  /** True once leaving was asked for. */
  readonly quitting: boolean;
  /** Asks to leave (once the loop ends, the host saves). */
  leave(): void;
  /** The terminal went away: from now on text goes only where it can still be read; then leave. */
  hangUp(): void;
  /** Aborted on the way out, so that what waits on the user (a browser) closes. */
  readonly signal: AbortSignal;
  /** Stops listening (only once the session is closed: a second SIGTERM must not kill a save half-way). */
  detach(): void;
}

export function watchLeaving(options: LeavingOptions): LeavingWatch {
  const { screen, input, output, signals, interrupt } = options;
  const leaving = new AbortController();
  let hungUp = false;
  const leave = (): void => {
    leaving.abort();
    options.leave();
  };
  // A host that hands its signals over (`process`) ends as a program does after a hang-up:
  // cleanly, its dead terminal closed as it exits (terminal/dead-terminal.ts).
  const ttys = signals === process ? terminalDescriptors() : [];
  const hangUp = (): void => {
    // Once: closing a reader on a dead terminal reports the terminal's error again.
    if (hungUp) return;
    hungUp = true;
    leaving.abort();
    screen.hangUp();
    closeTerminalsAtExit(ttys);
    // Not from inside the failing call: the error may come from the host's own close (readline's
    // setRawMode as it closes), and closing again from there would fail again before it is done.
    queueMicrotask(options.hangUp ?? options.leave);
  };
  const onPipedInterrupt = (): void => {
    if (!interrupt?.()) leave();
  };
  // A dead terminal shows as an 'error' of the input (a read's EIO), readline's while it reads
  // and the input's own afterwards: unheard, either would end the process before anything is saved.
  input.on('error', hangUp);
  output?.on('error', hangUp);
  const restoreEmit = options.keepInputErrors ? keepErrors(input, hangUp) : () => {};
  const restoreRawMode = guardRawMode(input, hangUp);
  signals?.on('SIGTERM', leave);
  signals?.on('SIGHUP', hangUp);
  const piped = interrupt !== undefined && !screen.terminal;
  if (piped) signals?.on('SIGINT', onPipedInterrupt);
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
      if (piped) signals?.off('SIGINT', onPipedInterrupt);
      input.off('error', hangUp);
      output?.off('error', hangUp);
      restoreRawMode();
      restoreEmit();
    },
  };
}

/**
 * A terminal that went away fails `setRawMode` (EIO), and readline calls it as it closes, from
 * where the error would end the process before the session is saved: such a failure is taken
 * as the hang-up it is. Returns the way to put the input's own back.
 */
function guardRawMode(input: NodeJS.ReadableStream, hangUp: () => void): () => void {
  const tty = input as Partial<NodeJS.ReadStream>;
  const setRawMode = tty.setRawMode;
  if (typeof setRawMode !== 'function') return () => {};
  tty.setRawMode = function (this: NodeJS.ReadStream, mode: boolean) {
    try {
      return setRawMode.call(this, mode);
    } catch {
      hangUp();
      return this;
    }
  };
  return () => {
    tty.setRawMode = setRawMode;
  };
}

/** Routes `input`'s 'error' events to `hangUp` alone; returns the way to undo it. */
function keepErrors(input: NodeJS.ReadableStream, hangUp: () => void): () => void {
  const emit = input.emit;
  input.emit = function (this: NodeJS.ReadableStream, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'error') return emit.call(this, event, ...args);
    hangUp();
    return true;
  };
  return () => {
    input.emit = emit;
  };
}
