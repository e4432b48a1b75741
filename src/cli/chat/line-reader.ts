/**
 * Reads the REPL's input lines with `node:readline` (docs/design.md §15): asynchronously, so timers
 * such as autosave fire while the user sits at the prompt, and from a pipe as well as a TTY.
 * Adds what a terminal user expects: messages of several lines and whole pastes (input-keys.ts),
 * Tab completion, up-arrow history, and Ctrl-C handed to the REPL.
 */
import { createInterface, type Completer, type Interface } from 'node:readline';
import { installInputKeys, type InputKeys } from './input-keys.js';
import { holdKeys, type KeyHold } from './key-hold.js';

const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';

/** How the line reader is wired. */
export interface LineReaderOptions {
  input: NodeJS.ReadableStream;
  /** The terminal (TTY mode only; in pipe mode nothing is echoed or prompted). */
  output?: NodeJS.WritableStream;
  terminal: boolean;
  prompt: string;
  /** Oldest first. */
  history?: string[];
  /** Tab completion: the candidates and the part of the line they replace. */
  complete?: (line: string) => Promise<[string[], string]>;
  /** Ctrl-C on a TTY (readline turns it into an event rather than a signal). */
  onInterrupt?: (currentLine: string) => void;
  /** Esc while keys are held (a reply is streaming): it stops the reply as Ctrl-C does. */
  onEscape?: () => void;
  /** The input failed (a closed terminal: `setRawMode EIO`); readline passes it on as its own error. */
  onInputError?: (err: Error) => void;
}

/** A queue of complete messages (on a terminal a message may hold several lines). */
export interface LineReader {
  /** Shows the prompt (TTY) and waits for the next line; null once input has ended. */
  read(): Promise<string | null>;
  /** Holds keypresses (a reply is streaming); the next `read()` shows the prompt, then replays them. TTY only. */
  hold(): void;
  /** Clears the line being typed (Ctrl-C); what it held stays the draft until something else is typed. */
  clearLine(): void;
  /**
   * The text typed but not sent (the message being typed, pastes in it whole, or what was
   * typed while a reply streamed), or what the last Ctrl-C cleared if nothing was
   * typed since; '' when none. Kept as it was when input ended. Always '' without a terminal.
   */
  readonly draft: string;
  /** Puts `text` (lines and all) on the line at the next prompt, for the user to edit or send (never sent by itself). */
  prefill(text: string): void;
  /** True once input has ended (Ctrl-D, end of a pipe, `close()`): `read()` only drains what is queued. */
  readonly ended: boolean;
  /** The underlying interface, for pausing around blocking prompts. */
  readonly rl: Interface;
  /** Stops reading; a pending `read()` resolves to null. Idempotent. */
  close(): void;
}

/** Creates the reader and starts reading. */
export function createLineReader(options: LineReaderOptions): LineReader {
  const { input, output, terminal } = options;
  const rl = createInterface({
    input,
    output: terminal ? output : undefined,
    terminal,
    prompt: options.prompt,
    history: [...(options.history ?? [])].reverse(),
    historySize: 1000,
    removeHistoryDuplicates: true,
    completer: terminal && options.complete ? asyncCompleter(options.complete) : undefined,
    tabSize: 4,
  });

  const queue: string[] = [];
  let ended = false;
  /** A prompt is showing with nothing typed after it yet (TTY). */
  let prompting = false;
  let waiting: ((line: string | null) => void) | undefined;
  const deliver = (line: string | null): void => {
    prompting = false;
    if (line === null) ended = true;
    else queue.push(line);
    if (!waiting) return;
    const resolve = waiting;
    waiting = undefined;
    if (queue.length > 0) resolve(queue.shift()!);
    else if (ended) resolve(null);
  };

  let cleared = '';
  let frozen: string | undefined;
  let prefill: string | undefined;
  let held: KeyHold | undefined;
  let keys: InputKeys | undefined;
  // While a reply streams, what is typed is held back from readline (key-hold.ts).
  const typed = (): string => held?.typed() ?? keys?.expand(rl.line) ?? rl.line;
  const draft = (): string => (terminal ? (frozen ?? (typed().trim() !== '' ? typed() : cleared)) : '');
  // The terminal marks pastes (bracketed paste) from here until the reader closes.
  if (terminal) {
    output?.write(PASTE_ON);
    keys = installInputKeys(rl, input);
    input.on('keypress', (_chunk: string, key: { name?: string; ctrl?: boolean } | undefined) => {
      // Typing anything replaces a line Ctrl-C cleared as the draft; Ctrl-C and Ctrl-D (leaving) do not.
      if (!(key?.ctrl && (key.name === 'c' || key.name === 'd'))) cleared = '';
    });
  }
  rl.on('line', (typedLine) => {
    cleared = '';
    const line = keys?.expand(typedLine) ?? typedLine;
    if (terminal && line.trim() === '') {
      // Enter on an empty prompt (often the Enter after a picker's key, or after a paste that
      // ended with a newline) does nothing: readline has moved to a new line, so go back up
      // and draw the prompt where it was, leaving no empty `›` line behind.
      if (prompting) {
        output?.write('\x1b[1A');
        rl.prompt();
      }
      return;
    }
    deliver(line);
  });
  rl.on('error', (err) => options.onInputError?.(err));
  rl.on('SIGINT', () => {
    if (options.onInterrupt) options.onInterrupt(rl.line);
    else rl.close();
  });
  rl.on('close', () => {
    frozen ??= draft();
    if (terminal) output?.write(PASTE_OFF);
    deliver(null);
  });

  return {
    rl,
    get ended() {
      return ended;
    },
    hold() {
      if (terminal && !ended && !held) held = holdKeys(input, { onInterrupt: () => options.onInterrupt?.(''), onEscape: () => options.onEscape?.() });
    },
    read() {
      let prompted = false;
      if (held) {
        const keys = held;
        held = undefined;
        if (ended) keys.drop();
        else {
          rl.prompt();
          prompted = prompting = true;
          keys.release();
        }
      }
      if (queue.length > 0) return Promise.resolve(queue.shift()!);
      if (ended) return Promise.resolve(null);
      if (terminal && !prompted) {
        rl.prompt();
        prompting = true;
      }
      if (keys && prefill !== undefined) {
        keys.insert(prefill);
        prefill = undefined;
      }
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    get draft() {
      return draft();
    },
    prefill(text) {
      prefill = text;
    },
    clearLine() {
      cleared = typed();
      // Ctrl-E then Ctrl-U: to the end of the line, then delete everything before the cursor.
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
    },
    close() {
      frozen ??= draft();
      held?.drop();
      held = undefined;
      if (!ended) rl.close();
    },
  };
}

/** readline calls a two-argument completer with a callback; ours is a promise. */
function asyncCompleter(complete: (line: string) => Promise<[string[], string]>): Completer {
  const completer = (line: string, callback: (err: Error | null, result: [string[], string]) => void): void => {
    complete(line).then(
      (result) => callback(null, result),
      () => callback(null, [[], line]),
    );
  };
  return completer as unknown as Completer;
}
