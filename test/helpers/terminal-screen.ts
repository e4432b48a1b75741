/**
 * What a person would see: a pseudo-terminal's raw output played into a headless xterm.js
 * terminal (cursor moves, erasures and all), read back as lines of text.
 */
import xterm from '@xterm/headless';

/** The terminal's lines (scrollback included), trailing spaces and empty last lines removed. */
export async function visibleScreen(raw: string, cols = 160, rows = 40): Promise<string> {
  const term = new xterm.Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(raw, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push((buffer.getLine(i)?.translateToString(true) ?? '').trimEnd());
  term.dispose();
  return lines.join('\n').replace(/\n+$/, '');
}
