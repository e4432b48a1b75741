/**
 * A one-line-a-row list to pick from, drawn under the prompt for any host with a terminal
 * (`/rewind`'s messages): ↑↓ move, Enter picks, Esc (or Ctrl-C, Ctrl-D) cancels. Each row is cut
 * to the terminal's width, never wrapped; a long list scrolls. Built on `@inquirer/core`,
 * imported when the list opens. While it is open the host's own key listeners (its line
 * reader) step aside, and get the keys and the terminal's mode back after, as the browser does.
 */
import { importRequired } from '../session/runtime/optional-package.js';
import { loadWidths, type Widths } from '../terminal/table.js';

export interface PickOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** The line above the rows. */
  heading: string;
  rows: readonly string[];
  /** Aborted: the list closes as a cancel (the host is leaving). */
  signal?: AbortSignal;
}

type Core = typeof import('@inquirer/core');
type Tty = NodeJS.ReadableStream & { isRaw?: boolean; isTTY?: boolean; setRawMode?(mode: boolean): void; destroyed?: boolean };
type Screen = NodeJS.WritableStream & { columns?: number; rows?: number };

const ENDINGS = new Set(['AbortPromptError', 'ExitPromptError', 'CancelPromptError']);

/** Resolves to the index of the row picked, or undefined when cancelled. */
export async function pickOne(options: PickOptions): Promise<number | undefined> {
  const [core, widths] = await Promise.all([importRequired('@inquirer/core', 'The list', () => import('@inquirer/core')), loadWidths()]);
  const input = options.input as Tty;
  const output = options.output as Screen;
  const ending = new AbortController();
  const end = (): void => ending.abort();
  if (options.signal?.aborted) end();
  options.signal?.addEventListener('abort', end);
  const held = input.listeners('keypress') as ((...args: unknown[]) => void)[];
  for (const listener of held) input.removeListener('keypress', listener);
  const raw = input.isRaw === true;
  let picked: number | undefined;
  try {
    picked = await listPrompt(core, widths)(
      { heading: options.heading, rows: options.rows, size: () => ({ columns: output.columns || 80, lines: output.rows || 24 }) },
      { input, output, signal: ending.signal, clearPromptOnDone: true },
    );
  } catch (err) {
    if (!(err instanceof Error && ENDINGS.has(err.name))) throw err;
  } finally {
    options.signal?.removeEventListener('abort', end);
    if (!input.destroyed && input.isTTY) input.setRawMode?.(raw);
    for (const listener of held) input.on('keypress', listener);
    // The prompt's readline paused the input as it closed; the host's reader reads on.
    if (held.length > 0 && !ending.signal.aborted) input.resume();
  }
  return ending.signal.aborted ? undefined : picked;
}

interface ListConfig {
  heading: string;
  rows: readonly string[];
  size(): { columns: number; lines: number };
}

function listPrompt(core: Core, { truncate }: Widths) {
  const { createPrompt, useKeypress, useState, useRef } = core;
  return createPrompt<number | undefined, ListConfig>((config, done) => {
    const [active, setActive] = useState(0);
    const top = useRef(0);
    useKeypress((key) => {
      if (key.name === 'escape' || (key.ctrl && key.name === 'd')) done(undefined);
      else if (key.name === 'return') done(active);
      else if (key.name === 'up') setActive(Math.max(0, active - 1));
      else if (key.name === 'down') setActive(Math.min(config.rows.length - 1, active + 1));
      else if (key.name === 'pageup') setActive(Math.max(0, active - 10));
      else if (key.name === 'pagedown') setActive(Math.min(config.rows.length - 1, active + 10));
    });
    const { columns, lines } = config.size();
    // The heading and the key line take two lines; a terminal's last line is left for the cursor.
    const height = Math.max(1, Math.min(config.rows.length, lines - 3));
    if (active < top.current) top.current = active;
    if (active >= top.current + height) top.current = active - height + 1;
    // One column short of the edge: a row that fills the last column makes some terminals wrap.
    const fit = (text: string): string => truncate(text, columns - 1);
    const shown = config.rows.slice(top.current, top.current + height).map((row, i) => fit(`${top.current + i === active ? '❯' : ' '} ${row}`));
    return [fit(config.heading), ...shown, fit('↑↓ move · Enter picks · Esc cancels')].join('\n');
  });
}
