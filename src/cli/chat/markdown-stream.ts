/**
 * Streams a reply as rendered Markdown. Markdown can only be rendered a whole line at a time
 * (emphasis, a link or a list item is not known before the line ends), so:
 * - the line being written is shown as it arrives, as plain text;
 * - when its newline arrives, that one line is replaced, in a single write, by its rendered
 *   form (the cursor goes back over the rows the plain text took, never further);
 * - a rendered line is never redrawn: each newline re-renders the open block (the lines since
 *   the last blank line outside a code fence) and writes only the rendered lines past those
 *   already on screen; a block that closes is final;
 * - a table is held until it ends (every row's width depends on the rows after it);
 * - on a terminal, rendered lines and the line in progress are broken at word boundaries to its
 *   width (terminal/wrap.ts); the line in progress takes the rows its wrapper wrote, which is what
 *   is erased when its rendered form replaces it.
 */
import { stripVTControlCharacters } from 'node:util';
import { lineWrapper, wrapText, type LineWrapper } from '../../terminal/wrap.js';
import { measure } from '../../terminal/wrap-width.js';
import type { MarkdownRenderer } from './markdown.js';

/** A Markdown reply being streamed. */
export interface MarkdownStream {
  /** Adds reply text; writes what it completes, and the line in progress as plain text. */
  push(text: string): void;
  /**
   * Renders and writes the rest. Returns true when the cursor is already at the start of a
   * line below the reply (the line in progress was replaced by nothing, as a closing code
   * fence is), false when it is at the end of the reply's last line, which the caller ends.
   */
  end(): boolean;
  /** The column the cursor is at on its row: where the reply's last row ends (0 at the start of a line). */
  column(): number;
}

/**
 * `write` receives terminal output, once per `push`. `columns` is the terminal's current
 * width: without it the line in progress is not shown until it is complete.
 */
export function createMarkdownStream(markdown: MarkdownRenderer, write: (text: string) => void, columns?: () => number): MarkdownStream {
  /** Source of the open block, then the partial line. */
  let block = '';
  /** Rendered lines of the open block already written. */
  let shown = 0;
  let inFence = false;
  /** The previous block wrote something: a blank line separates it from the next (written once). */
  let separate = false;
  /** The cursor is at the end of a written line (the next line needs a newline first). */
  let lineOpen = false;
  /** The line in progress as shown (plain), or undefined when none is on screen. */
  let preview: string | undefined;
  /** How the line in progress is wrapped (the rows it takes on screen). */
  let previewRows: LineWrapper | undefined;
  let wroteAny = false;
  let out = '';
  /** Columns the last row of the last written line takes. */
  let lastRow = 0;

  const newLine = (): void => {
    if (lineOpen) out += '\n';
    lineOpen = false;
  };
  const erasePreview = (): void => {
    if (preview === undefined) return;
    const rows = previewRows?.rows ?? 1;
    out += `\r${rows > 1 ? `\x1b[${rows - 1}A` : ''}\x1b[J`;
    preview = undefined;
    previewRows = undefined;
  };
  const emit = (lines: readonly string[]): void => {
    const width = columns?.();
    for (const line of lines) {
      newLine();
      const rows = width === undefined ? line : wrapText(line, width);
      out += rows;
      lastRow = measure(stripVTControlCharacters(rows.slice(rows.lastIndexOf('\n') + 1)));
      lineOpen = true;
    }
  };
  /** The blank line before a new block, before its first line (rendered or in progress). */
  const separateBlock = (): void => {
    if (shown > 0 || !separate) return;
    emit(['']);
    separate = false;
  };
  /** Writes the rendered lines of `source` past the `shown` first ones. */
  const showFrom = (source: string): void => {
    const lines = renderLines(markdown.render, source);
    if (lines.length <= shown) return;
    separateBlock();
    emit(lines.slice(shown));
    shown = lines.length;
  };
  const closeBlock = (): void => {
    showFrom(block);
    if (shown > 0) separate = true;
    block = '';
    shown = 0;
  };
  const flush = (): void => {
    if (out !== '') write(out);
    wroteAny ||= out !== '';
    out = '';
  };

  return {
    push(text) {
      let rest = text;
      let completed = false;
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
        if (!completed) erasePreview();
        completed = true;
        const line = block.slice(block.lastIndexOf('\n') + 1) + rest.slice(0, nl);
        block += rest.slice(0, nl + 1);
        rest = rest.slice(nl + 1);
        if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
        if (!inFence && line.trim() === '') closeBlock();
        else if (!isTable(block)) showFrom(block);
      }
      block += rest;
      const partial = block.slice(block.lastIndexOf('\n') + 1);
      if (columns && partial !== '' && !isTable(block)) {
        // Shown plain; control characters (escape sequences) are not the model's to send.
        const plain = partial.replace(/\t/g, '    ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
        if (preview === undefined) {
          separateBlock();
          newLine();
          previewRows = lineWrapper(columns);
          out += previewRows.push(plain);
        } else {
          out += previewRows!.push(plain.slice(preview.length));
        }
        preview = plain;
      }
      flush();
    },
    end() {
      erasePreview();
      closeBlock();
      inFence = false;
      flush();
      return wroteAny && !lineOpen;
    },
    column: () => (lineOpen ? lastRow : 0),
  };
}

/**
 * The rendered lines, without blank lines at either end (whether a block ends in blank lines,
 * as an open code fence's trailing empty lines, is known only once more text arrives) and
 * without trailing spaces (invisible, but they would push a marker such as `[interrupted]`).
 */
function renderLines(render: MarkdownRenderer['render'], source: string): string[] {
  const lines = render(source)
    .split('\n')
    .map((line) => line.replace(/[ \t]+((?:\x1b\[[0-9;]*m)*)$/, '$1'));
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
