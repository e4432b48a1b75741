/**
 * Where each kind of text goes. On a terminal everything shares the screen, with colour.
 * With piped stdin (docs/design.md §16) stdout carries only this run's replies and command output,
 * plain; status lines (banner, warnings, a resumed transcript, "Saved…", "Resume with…") go
 * to stderr. On a terminal every line, and a reply as it streams, is broken at word boundaries to
 * the terminal's width, measured at each write (wrap.ts); a pipe gets the text as it is.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { lineWrapper, wrapText } from './wrap.js';
import { measure } from './wrap-width.js';

/** The REPL's output channels. */
export interface Screen {
  readonly terminal: boolean;
  readonly color: ChalkInstance;
  /** A piece of the assistant's reply, as it streams (on a terminal, wrapped at word boundaries as the words arrive). */
  reply(text: string): void;
  /**
   * Ends a reply: an optional marker (wrapped with it), then a newline. `column`: the reply was
   * written laid out already (rendered Markdown, through `raw`), its last row ending there: the
   * marker follows on that row when it fits, else begins the next.
   */
  endReply(marker?: string, column?: number): void;
  /** Output a command asked for (listings, help). */
  info(text: string): void;
  /** What an earlier run said (a resumed session's last exchanges): stderr when piped, as stdout carries only this run's output. */
  recap(text: string): void;
  /** Banner, resume notes, "Saved…": stderr when piped. */
  status(text: string): void;
  warn(text: string): void;
  error(text: string): void;
  /** Raw text on the terminal (spinner frames, Markdown already laid out to the width); nothing when piped. */
  raw(text: string): void;
  /** The terminal's width now (it may be resized), or undefined when piped. */
  columns(): number | undefined;
  /**
   * The terminal went away (its window was closed): from now on nothing is written to it, and
   * status lines ("Saved …") go to stderr only when that is not the same terminal.
   */
  hangUp(): void;
}

/**
 * Builds a screen. `colorLevel` is stdout's (0 turns colour off: NO_COLOR, pipes), `stderrColorLevel`
 * stderr's, decided by its own terminal (default: stdout's level): status lines that go to stderr
 * (piped, or after the terminal is gone) are coloured only when stderr can show colour.
 */
export function createScreen(options: {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  terminal: boolean;
  colorLevel: 0 | 1 | 2 | 3;
  stderrColorLevel?: 0 | 1 | 2 | 3;
  /** stderr is the terminal too (default: when `terminal`); decides where text goes after a hang-up. */
  stderrIsTerminal?: boolean;
}): Screen {
  const { stderr, terminal } = options;
  let stdout: NodeJS.WritableStream | undefined = options.stdout;
  const color = new Chalk({ level: options.colorLevel });
  const stderrColor = new Chalk({ level: options.stderrColorLevel ?? options.colorLevel });
  let side: NodeJS.WritableStream | undefined = terminal ? stdout : stderr;
  /** The colours of the stream status lines go to now. */
  const sideColor = (): ChalkInstance => (side === stderr ? stderrColor : color);
  const columns = (): number | undefined => (terminal ? (stdout as Partial<NodeJS.WriteStream>).columns : undefined);
  const line = (stream: NodeJS.WritableStream | undefined, text: string): void => {
    // Only the terminal's own lines are wrapped: stderr after a hang-up or on a pipe keeps them whole.
    const shown = stream !== undefined && stream === stdout ? wrapText(text, columns(), { keepTails: true }) : text;
    stream?.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  };
  let replying = lineWrapper(columns);
  /** `marker` after a row that ends at `column`, or on the next row when it does not fit (a terminal would break it anywhere). */
  const afterRow = (marker: string, column: number): string => {
    const width = columns();
    return width !== undefined && column + measure(marker) > width ? `\n${color.yellow(marker.trimStart())}` : color.yellow(marker);
  };
  return {
    terminal,
    color,
    reply: (text) => stdout?.write(replying.push(text)),
    endReply: (marker, column) => {
      if (column === undefined) stdout?.write(`${replying.push(marker ? color.yellow(marker) : '')}${replying.end()}\n`);
      else stdout?.write(`${marker ? afterRow(marker, column) : ''}\n`);
      replying = lineWrapper(columns);
    },
    info: (text) => line(stdout, text),
    recap: (text) => line(side, text),
    status: (text) => line(side, sideColor().dim(text)),
    warn: (text) => line(side, sideColor().yellow(text)),
    error: (text) => line(side, sideColor().red(text)),
    raw: (text) => {
      if (terminal) stdout?.write(text);
    },
    hangUp: () => {
      if (!terminal) return;
      stdout = undefined;
      side = (options.stderrIsTerminal ?? true) ? undefined : stderr;
    },
    columns,
  };
}

/** The colour level from the environment: NO_COLOR wins, then FORCE_COLOR, then "is it a terminal". */
export function colorLevelFor(env: Record<string, string | undefined>, terminal: boolean, detected: number): 0 | 1 | 2 | 3 {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const level = Number(force);
    return level === 2 || level === 3 ? level : 1;
  }
  // A terminal that reports no colours (TERM=dumb) gets none.
  if (!terminal) return 0;
  return detected === 1 || detected === 2 || detected === 3 ? detected : 0;
}

/** The colours a stream's terminal reports (`hasColors()` honours NO_COLOR, FORCE_COLOR and TERM): 0 (none), 1 (16), 2 (256), 3 (true colour). */
export function colorDepth(stream: Partial<NodeJS.WriteStream>): 0 | 1 | 2 | 3 {
  if (!stream.hasColors?.() || typeof stream.getColorDepth !== 'function') return 0;
  const depth = stream.getColorDepth();
  return depth >= 24 ? 3 : depth >= 8 ? 2 : 1;
}
