/**
 * What chatkeep's prompt adds to readline's keys, for a message of several lines: Alt-Enter,
 * Shift-Enter where the terminal reports it (`ESC [13;2u`, `ESC [27;2;13~`) and `\` then Enter
 * start a new line in the message instead of sending it; a bracketed paste is taken whole (its
 * line breaks never send), and one of more than {@link PASTE_SHOWN_LINES} lines shows as one
 * marker, `[pasted N lines]`, which Backspace deletes whole and sending replaces by the paste.
 *
 * The message's lines live in readline's own line, joined by `\n`: readline draws such a line
 * over several rows, moves across it and recalls it from its history whole (↑).
 */
import type { Interface } from 'node:readline';

/** A paste of more lines than this shows as a marker. */
export const PASTE_SHOWN_LINES = 3;

/**
 * readline's insertion at the cursor, which draws what it inserts and never sends: one of the
 * legacy underscore methods Node keeps on `readline.Interface` for code that extends the line
 * editor. (`rl.write` would take a line break for Enter.) While it reads a chunk of several
 * keys readline clears `isCompletionEnabled`, and insertion then only writes the text out,
 * without noting the rows it added: set, it redraws and keeps count.
 */
interface Editable {
  isCompletionEnabled: boolean;
  _insertString(text: string): void;
}

/** A key as Node's keypress parser reports it. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  code?: string;
  sequence?: string;
}
type KeyListener = (chunk: string | undefined, key: Key | undefined) => void;

/** The prompt's message keys, installed in front of readline's. */
export interface InputKeys {
  /** Inserts `text` at the cursor; its line breaks are lines of the message. */
  insert(text: string): void;
  /** `line` as it is sent: each paste marker replaced by the text it stands for. */
  expand(line: string): string;
}

/** Puts a filter between `input`'s keypresses and readline's listener for them. */
export function installInputKeys(rl: Interface, input: NodeJS.ReadableStream): InputKeys {
  const readline = input.listeners('keypress') as KeyListener[];
  for (const listener of readline) input.removeListener('keypress', listener);
  const pass: KeyListener = (chunk, key) => {
    for (const listener of readline) listener(chunk, key);
  };
  const insert = (text: string): void => {
    const editable = rl as unknown as Editable;
    const enabled = editable.isCompletionEnabled;
    editable.isCompletionEnabled = true;
    editable._insertString(text);
    editable.isCompletionEnabled = enabled;
  };
  const pastes = new Map<string, string>();
  /** The pieces of a bracketed paste being read. */
  let paste: string[] | undefined;
  let afterCR = false;
  /** The key code digits of an xterm modifyOtherKeys sequence being read (`ESC [27;m;` was). */
  let modified: string | undefined;

  const finishPaste = (pieces: string[]): void => {
    // The line break that ends a pasted last line is not a line of its own.
    const text = pieces.join('').replace(/\n$/, '');
    if (text === '') return;
    const lines = text.split('\n').length;
    if (lines <= PASTE_SHOWN_LINES) return insert(text);
    let marker = `[pasted ${lines} lines]`;
    for (let n = 2; pastes.has(marker) && pastes.get(marker) !== text; n++) marker = `[pasted ${lines} lines #${n}]`;
    pastes.set(marker, text);
    insert(marker);
  };
  const isEnter = (key: Key | undefined): boolean => key?.name === 'return' || key?.name === 'enter';
  const markerBeforeCursor = (): string | undefined => {
    const before = rl.line.slice(0, rl.cursor);
    return [...pastes.keys()].find((marker) => before.endsWith(marker));
  };

  const onKey: KeyListener = (chunk, key) => {
    if (paste) {
      if (key?.name === 'paste-end') {
        const pieces = paste;
        paste = undefined;
        return finishPaste(pieces);
      }
      // A CR LF pair is one line break; other control characters are not text.
      if (isEnter(key)) {
        if (!(afterCR && key?.sequence === '\n')) paste.push('\n');
        afterCR = key?.sequence === '\r';
      } else {
        afterCR = false;
        if (chunk && !/[\x00-\x08\x0b-\x1f\x7f]/.test(chunk)) paste.push(chunk);
      }
      return;
    }
    if (key?.name === 'paste-start') {
      paste = [];
      afterCR = false;
      return;
    }
    if (modified !== undefined) {
      // Node's parser ends `ESC [27;m;` early and hands the key code on as digits, then `~`.
      if (chunk !== undefined && /^\d$/.test(chunk)) {
        modified += chunk;
        return;
      }
      const code = modified;
      modified = undefined;
      if (chunk === '~') {
        if (code === '13') insert('\n');
        return;
      }
    }
    if (key?.code !== undefined && /^\[27;\d+;$/.test(key.code)) {
      modified = '';
      return;
    }
    // Enter with a modifier: Alt (ESC then CR), or Shift, Alt or Ctrl as kitty's and
    // xterm's extended keyboard modes report it (`ESC [13;2u`).
    if ((isEnter(key) && key?.meta) || (key?.code !== undefined && /^\[13;\d+u$/.test(key.code))) return insert('\n');
    if (isEnter(key) && !key?.ctrl && rl.cursor === rl.line.length && rl.line.endsWith('\\')) {
      rl.write(null, { name: 'backspace' });
      return insert('\n');
    }
    if (key?.name === 'backspace' && !key.ctrl && !key.meta) {
      const marker = markerBeforeCursor();
      if (marker !== undefined) {
        for (let i = 0; i < marker.length; i++) rl.write(null, { name: 'backspace' });
        return;
      }
    }
    pass(chunk, key);
  };
  input.on('keypress', onKey);

  return {
    insert,
    expand(line) {
      for (const [marker, text] of pastes) if (line.includes(marker)) line = line.split(marker).join(text);
      return line;
    },
  };
}
