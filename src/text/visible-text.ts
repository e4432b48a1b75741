/**
 * Stored text made safe to show (docs/design.md §6: stored text is exact, shown text is safe). A message
 * may hold terminal control sequences, typed, pasted, written by a model or planted by another
 * user of a shared server: `ESC[2J` clears the reader's screen, `ESC]52;c;…BEL` writes their
 * clipboard. Every path that shows stored text to a person (the transcript replayed on resume,
 * `sessions show`, search snippets, listings and pickers, the Markdown export) passes it through
 * {@link visibleText} first; the stored text, `--json` and the JSON export stay byte-exact.
 */

/**
 * Control characters but tab and newline: C0, DEL and C1; and the bidirectional embedding,
 * override and isolate controls (U+202A–202E, U+2066–2069), which reorder what follows them on
 * screen so that a stored line can read as something else than it holds.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with each control character shown as a visible, inert stand-in: C0 characters and DEL
 * as their Unicode control pictures (`ESC` → `␛`, `BEL` → `␇`, `CR` → `␍`), C1 characters
 * and the bidirectional controls as their code (`\u009b`, `\u202e`). A CRLF line end is a plain
 * line end. Tabs and newlines are kept.
 */
export function visibleText(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === '\r\n') return '\n';
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** True when `text` holds a character {@link visibleText} would replace. */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text.replace(/\r\n/g, '\n'));
}
