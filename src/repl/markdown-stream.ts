/**
 * Streams a reply as rendered Markdown without redrawing anything. Text is committed a whole
 * line at a time (as Codex CLI does): the line being typed is held until its newline, because
 * emphasis, a link or a table row cannot be rendered before the line is complete, and a line
 * once written is never taken back. Each newline re-renders the open block (the lines since
 * the last blank line outside a code fence) and writes only the rendered lines past those
 * already shown; a block that closes is final. Tables are held until the table ends, since
 * every row's width depends on the rows after it.
 */
import { stripVTControlCharacters } from 'node:util';
import type { RenderMarkdown } from './markdown.js';

/** A Markdown reply being streamed. */
export interface MarkdownStream {
  /** Adds reply text; writes whatever lines it completes. */
  push(text: string): void;
  /** Renders and writes the rest. The last line is left without its newline (the caller ends the reply). */
  end(): void;
}

/** `write` receives rendered text; every piece but the first starts with a newline. */
export function createMarkdownStream(render: RenderMarkdown, write: (text: string) => void): MarkdownStream {
  /** Source of the open block, then the partial line. */
  let block = '';
  /** Rendered lines of the open block already written. */
  let shown = 0;
  let wroteAny = false;
  let inFence = false;
  /** The previous block wrote something: a blank line separates it from the next. */
  let separate = false;

  const emit = (lines: readonly string[]): void => {
    for (const line of lines) {
      write(wroteAny ? `\n${line}` : line);
      wroteAny = true;
    }
  };
  /** Writes the rendered lines of `source` past the `shown` first ones. */
  const showFrom = (source: string): void => {
    const lines = renderLines(render, source);
    if (lines.length <= shown) return;
    if (shown === 0 && separate) emit(['']);
    emit(lines.slice(shown));
    shown = lines.length;
  };
  const closeBlock = (): void => {
    showFrom(block);
    if (shown > 0) separate = true;
    block = '';
    shown = 0;
  };

  return {
    push(text) {
      let rest = text;
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
        const line = block.slice(block.lastIndexOf('\n') + 1) + rest.slice(0, nl);
        block += rest.slice(0, nl + 1);
        rest = rest.slice(nl + 1);
        if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
        if (!inFence && line.trim() === '') closeBlock();
        else if (!isTable(block)) showFrom(block);
      }
      block += rest;
    },
    end() {
      closeBlock();
      inFence = false;
    },
  };
}

/**
 * The rendered lines, without blank lines at either end: whether a block ends in blank lines
 * (an open code fence's trailing empty lines) is known only once more text arrives.
 */
function renderLines(render: RenderMarkdown, source: string): string[] {
  const lines = render(source).split('\n');
  const blank = (line: string): boolean => stripVTControlCharacters(line).trim() === '';
  let start = 0;
  let end = lines.length;
  while (start < end && blank(lines[start]!)) start++;
  while (end > start && blank(lines[end - 1]!)) end--;
  return lines.slice(start, end);
}

/** The open block is a table (its first line starts with `|`): held until it closes. */
function isTable(block: string): boolean {
  return /^\s*\|/.test(block.replace(/^\n+/, ''));
}
