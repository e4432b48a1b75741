/**
 * Text broken at word boundaries to a terminal's width (docs/design.md §14): the one wrapper for
 * everything chatkeep prints to a terminal. Whole texts (help, the banner, notices, refusals,
 * exit lines, transcripts) go through {@link wrapText}; a reply goes through a
 * {@link lineWrapper} as it streams, which decides where each word goes as it arrives and never
 * takes back what it wrote: a word that may still grow is held until it ends or can no longer fit
 * on its row, and a word longer than a row is broken where the row ends. A pipe is never wrapped:
 * callers pass no width there.
 *
 * Continuation rows are indented as the line's own layout says: under the text after a bullet
 * (`• `, `- `, `1. `), under a help table's text column (an indented line's first gap of two or
 * more spaces), else under the line's own indentation. ANSI escape sequences take no room and
 * are never split; printable ASCII is measured by its length, the rest by string-width once
 * something has loaded it, and before that (the banner, `--help`: start-up does not load it) by a
 * conservative estimate that counts an unknown character as two columns.
 */
import { graphemes, KEEP, measure } from './wrap-width.js';

/** A wrapper over a stream of text. */
export interface LineWrapper {
  /** Adds text; returns what can be written now (a word that may still grow is held back). */
  push(text: string): string;
  /** Returns what is held (the last word), and starts over as if at the start of a row: the caller ends the row. */
  end(): string;
  /** Rows the text returned so far takes: 1 plus the line breaks in it. */
  readonly rows: number;
}

/** Fewest columns a continuation row keeps for text: a deeper indentation gives way. */
const MIN_TEXT = 30;
// eslint-disable-next-line no-control-regex
const TOKEN = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[^[\]]?|\r|\n|[ \t]+|[^\x1b\r\n \t]+/g;
const BULLET = /^(?:[-*+•◦▪‣]|\d{1,3}[.)])$/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[^[\]]?)/g;

/**
 * `text` broken at word boundaries into rows of at most `width` columns; as it is without a width
 * (a pipe). With `keepTails`, what follows a line's last `: ` (a printed command, a path, an ID:
 * `Resume with: chatkeep --session-id …`; not a clause with `, ` `; ` or `. ` in it) stays on one
 * row when it fits on one, so that a command copied from the screen is one line.
 */
export function wrapText(text: string, width: number | undefined, options: { keepTails?: boolean } = {}): string {
  if (width === undefined || width <= 0) return text;
  const source = options.keepTails ? text.split('\n').map((line) => keepTail(line, width)).join('\n') : text;
  const wrapper = lineWrapper(() => width);
  const out = wrapper.push(source) + wrapper.end();
  return options.keepTails ? out.replaceAll(KEEP, ' ') : out;
}

/**
 * `line` with the spaces after its last `: ` made unbreakable, when that tail fits on a row of
 * `width` by itself: only in a line that is not indented, whose rows all start at the left edge.
 */
function keepTail(line: string, width: number): string {
  const at = line.lastIndexOf(': ');
  if (at < 0 || /^\s/.test(line.replace(ESCAPES, ''))) return line;
  const tail = line.slice(at + 2);
  // Prose (a clause with its own punctuation) wraps as prose: only a command-like tail is kept.
  if (!tail.includes(' ') || /[,;.] /.test(tail) || measure(tail.replace(ESCAPES, '').replace(/\s/g, 'x')) > width) return line;
  return line.slice(0, at + 2) + tail.replace(/ /g, KEEP);
}

/** A wrapper that reads the width at each `push` (a terminal may be resized while a reply streams). */
export function lineWrapper(width: () => number | undefined): LineWrapper {
  let rows = 1;
  let col = 0;
  let columns = 0;
  // The source line being laid out.
  let started = false;
  let lead = 0;
  let firstRow = true;
  let words = 0;
  let bulletFirst = false;
  let textHang: number | undefined;
  // Whitespace after the last word written, written only if the next word follows on the same row.
  let space = '';
  // The word being read: held until it ends, or written as it comes once it began a row of its own.
  let word = '';
  let wordWidth = 0;
  let live = false;

  /** The deepest indentation a row may have: a narrow terminal keeps half its width for text. */
  const deepest = (): number => columns - Math.min(MIN_TEXT, Math.floor(columns / 2));
  const hang = (): number => {
    const want = textHang ?? lead;
    if (want <= deepest()) return want;
    return lead <= deepest() ? lead : 0;
  };
  const newRow = (): string => {
    const indent = hang();
    rows++;
    firstRow = false;
    col = indent;
    return `\n${' '.repeat(indent)}`;
  };
  /** Writes `text` from the cursor, breaking where a row ends (a word longer than a row, or one begun on a fresh row). */
  const hard = (text: string): string => {
    let out = '';
    for (const token of text.match(TOKEN) ?? []) {
      if (token.startsWith('\x1b')) {
        out += token;
        continue;
      }
      for (const [grapheme, w] of graphemes(token)) {
        if (col + w > columns && col > hang()) out += newRow();
        out += grapheme;
        col += w;
      }
    }
    return out;
  };
  const spaceWidth = (): number => {
    let w = 0;
    for (const c of space) w += c === '\t' ? 8 - ((col + w) % 8) : 1;
    return w;
  };
  /** The word has ended: it goes where it fits (a held word that reached here fits on its row). */
  const place = (): string => {
    if (live || word === '') {
      const out = live ? '' : word;
      live = false;
      word = '';
      wordWidth = 0;
      return out;
    }
    let out = '';
    if (wordWidth > 0) {
      const before = spaceWidth();
      if (firstRow && words === 1 && bulletFirst) textHang = col + before;
      else if (firstRow && lead > 0 && textHang === undefined && before >= 2 && words > 0) textHang = col + before;
      out += space;
      col += before;
      space = '';
      if (words === 0) bulletFirst = BULLET.test(word.replace(ESCAPES, ''));
      words++;
    }
    out += word;
    col += wordWidth;
    word = '';
    wordWidth = 0;
    return out;
  };
  const startLine = (): void => {
    started = false;
    lead = 0;
    firstRow = true;
    words = 0;
    bulletFirst = false;
    textHang = undefined;
    space = '';
    col = 0;
  };
  /** A piece of a word arrived: written once the word is known not to fit where it would follow. */
  const grow = (text: string, w: number): string => {
    if (live) return hard(text);
    word += text;
    wordWidth += w;
    if (wordWidth === 0 || col + spaceWidth() + wordWidth <= columns) return '';
    // It cannot fit on this row: it begins the next one (or this one, when nothing is on it yet).
    const held = word;
    word = '';
    wordWidth = 0;
    live = true;
    const empty = words === 0 || col <= hang();
    const out = empty ? space : newRow();
    if (empty) col += spaceWidth();
    space = '';
    if (words === 0) bulletFirst = BULLET.test(held.replace(ESCAPES, ''));
    words++;
    return out + hard(held);
  };

  return {
    get rows() {
      return rows;
    },
    push(text) {
      columns = width() ?? 0;
      if (columns <= 0) return text;
      let out = '';
      for (const token of text.match(TOKEN) ?? []) {
        if (token === '\n' || token === '\r') {
          out += place() + token;
          if (token === '\n') rows++;
          startLine();
        } else if (token.startsWith('\x1b')) {
          // Written at once unless it belongs to a held word (or to the word after held spaces).
          if (live || (word === '' && space === '')) out += token;
          else word += token;
        } else if (token.trim() === '') {
          if (!started && word === '') {
            // The line's indentation, kept (code, help tables) but never pushing text off the row.
            const room = Math.max(0, deepest() - col);
            const kept = token.replace(/\t/g, '    ').slice(0, room);
            out += kept;
            col += kept.length;
            lead = col;
          } else {
            out += place();
            space += token;
          }
        } else {
          started = true;
          out += grow(token, measure(token));
        }
      }
      return out;
    },
    end() {
      const out = place();
      startLine();
      return out;
    },
  };
}
