/**
 * `JSON.stringify` in slices: the same text, produced as pieces between which the event loop
 * runs, so that encoding a 10 MB snapshot never freezes a spinner or the keys being typed.
 *
 * It relies on JSON text being compositional: an object is `{` + `"key":value` pairs + `}`, an
 * array `[` + values + `]`, and a string's escaping works character by character (a lone
 * surrogate is escaped alone; a pair is kept together). So large arrays are stringified element
 * by element and long strings piece by piece, each with `JSON.stringify` itself, never with an
 * escaper of our own.
 */
import { isPlainObject } from '../../util/is-object.js';

/** How long one slice may run before the event loop gets a turn. */
const SLICE_MS = 4;
/** Strings longer than this are stringified in pieces of this many UTF-16 units. */
const STRING_PIECE = 1 << 20;

/** Gives the event loop a turn when the current slice has run its time. */
export class Slicer {
  private started = performance.now();
  constructor(private readonly budgetMs = SLICE_MS) {}

  /** Whether the current slice has run its time (the next piece should be small). */
  due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  async maybeYield(): Promise<void> {
    if (!this.due()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** Receives the text in order, a piece at a time; may wait (to write what it has). */
export type TextSink = (piece: string) => void | Promise<void>;

/**
 * Hands `sink` pieces whose concatenation equals `JSON.stringify(value, null, indent)` (no
 * replacer; `indent` spaces, none by default), giving the event loop a turn between pieces. A
 * part that is small (no long array, no object with many keys, no string over a piece) is
 * stringified whole; larger ones are walked. The pieces are not kept: a sink that writes them
 * as they come keeps the text from piling up in memory (and the garbage collector from copying
 * it). The value must not change until this resolves (the caller holds its lock).
 */
export async function stringifySliced(value: unknown, sink: TextSink, slicer = new Slicer(), indent = 0): Promise<void> {
  await write(value, sink, slicer, { step: ' '.repeat(indent), pad: '' });
}

/** Arrays longer than this, and objects with more keys, are walked rather than stringified whole. */
const WIDE = 32;

/** Indentation: one level (`step`, empty for none) and the current one (`pad`). */
interface Layout {
  step: string;
  pad: string;
}

async function write(value: unknown, out: TextSink, slicer: Slicer, at: Layout): Promise<void> {
  if (!needsWalk(value)) {
    const text = JSON.stringify(value, null, at.step);
    // A JSON string holds no raw newline: every newline in the text is indentation.
    await out(text === undefined ? 'null' : at.pad && at.step ? text.replaceAll('\n', `\n${at.pad}`) : text);
    await slicer.maybeYield();
  } else if (typeof value === 'string') {
    await writeString(value, out, slicer);
  } else {
    // Each member on a line of its own, one level in, when indenting (as JSON.stringify does).
    const inner: Layout = { step: at.step, pad: at.pad + at.step };
    const open = at.step ? `\n${inner.pad}` : '';
    if (Array.isArray(value)) {
      await out('[');
      for (let i = 0; i < value.length; ) {
        await out(i > 0 ? `,${open}` : open);
        const run = at.step || slicer.due() ? 0 : smallRun(value, i);
        if (run > 1) {
          // A run of small elements in one JSON.stringify, its brackets cut off: one call per
          // element took twice as long as stringifying the whole (a 2 MB session's 1,000 messages).
          const text = JSON.stringify(value.slice(i, i + run));
          await out(text.slice(1, -1));
          await slicer.maybeYield();
          i += run;
          continue;
        }
        const item: unknown = value[i];
        // In an array, what JSON cannot hold is written as null.
        await write(skipped(item) ? null : item, out, slicer, inner);
        i += 1;
      }
      await out(value.length > 0 && at.step ? `\n${at.pad}]` : ']');
    } else {
      const object = value as Record<string, unknown>;
      await out('{');
      let first = true;
      for (const key of Object.keys(object)) {
        const item = object[key];
        if (skipped(item)) continue;
        await out(`${first ? open : `,${open}`}${JSON.stringify(key)}:${at.step ? ' ' : ''}`);
        first = false;
        await write(item, out, slicer, inner);
      }
      await out(!first && at.step ? `\n${at.pad}}` : '}');
    }
  }
}

async function writeString(text: string, out: TextSink, slicer: Slicer): Promise<void> {
  await out('"');
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + STRING_PIECE, text.length);
    // Never cut between a high and a low surrogate: each half would be escaped on its own.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    await out(JSON.stringify(text.slice(start, end)).slice(1, -1));
    start = end;
    await slicer.maybeYield();
  }
  await out('"');
}

/** Elements stringified together at most (small ones: one string of up to a piece each at worst). */
const RUN = 16;

/** How many elements from `start` on need no walk (up to RUN): they are stringified together. */
function smallRun(array: readonly unknown[], start: number): number {
  let end = start;
  while (end < array.length && end - start < RUN && !needsWalk(array[end])) end += 1;
  return end - start;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** True when stringifying `value` whole could take longer than a slice. */
function needsWalk(value: unknown): boolean {
  if (typeof value === 'string') return value.length > STRING_PIECE;
  if (Array.isArray(value)) return value.length > WIDE || value.some(needsWalk);
  if (!walkable(value)) return false;
  const keys = Object.keys(value);
  return keys.length > WIDE || keys.some((key) => needsWalk(value[key]));
}

/** A plain object without a toJSON of its own: one with one (a Date, …) is stringified whole, as JSON.stringify would call it. */
function walkable(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.toJSON !== 'function';
}
