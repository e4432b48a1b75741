/**
 * An output stream whose text is broken at word boundaries to its terminal's width (wrap.ts), for
 * what the command line writes straight to stdout and stderr (help, `sessions` subcommands,
 * refusals). A stream that is not a terminal is returned as it is: scripts read it.
 */
import { wrapText } from './wrap.js';

/** `stream` itself when it is not a terminal; else a view of it whose `write` wraps each text written to the width at that moment. */
export function wrappedOutput(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  const tty = stream as Partial<NodeJS.WriteStream>;
  if (tty.isTTY !== true) return stream;
  // Everything but `write` (events, `columns`, the stream's state) is the stream's own.
  const view = Object.create(stream) as NodeJS.WritableStream;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  view.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? wrapText(chunk, tty.columns, { keepTails: true }) : chunk, ...rest)) as typeof stream.write;
  return view;
}

/** `text` as a terminal stream should show it (wrapped to its width), as it is for any other stream. */
export function forStream(stream: NodeJS.WritableStream, text: string): string {
  const tty = stream as Partial<NodeJS.WriteStream>;
  return tty.isTTY === true ? wrapText(text, tty.columns, { keepTails: true }) : text;
}
