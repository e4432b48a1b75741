/**
 * Text broken at word boundaries (docs/design.md §14): on a terminal of 80 or 120 columns, `/help`,
 * the banner, a long reply (rendered Markdown and `--raw`), `chatkeep --help` and `sessions --help`
 * are laid out in whole words, nothing left to the terminal's own wrapping; a pipe gets the text
 * unwrapped, as scripts read it. Played into @xterm/headless: what a person sees.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { phrase, runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const MESSAGE =
  'Please keep these notes about their mountain trip: rain in the morning, sunshine after lunch, a message from the guide about the weather, and a reminder that every hiker carries water.';

/** Whitespace runs as one space: rows joined back with spaces read as the text when no word was cut. */
const words = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Asserts that `rows` (what the terminal shows) are `text` broken only at word boundaries: joined
 * with spaces they read as the text (a word cut in two would read as two), no row was left to
 * the terminal's own wrapping, and none is wider than the terminal.
 */
function expectWholeWords(shown: Shown, text: string, columns: number, range: [number, number] = [0, shown.rows.length - 1]): void {
  const rows = shown.rows.slice(range[0], range[1] + 1);
  expect(words(rows.join(' '))).toBe(words(text));
  for (const row of rows) expect(row.length, row).toBeLessThanOrEqual(columns);
  expect(shown.wrapped.filter((i) => i > range[0] && i <= range[1])).toEqual([]);
}

/** The screen's rows, and which of them the terminal wrapped over from the row above. */
interface Shown {
  rows: string[];
  wrapped: number[];
}

/** Where the rows from the one that starts with `first` to the one that ends with `last` are (both included). */
function rowsBetween(rows: readonly string[], first: (row: string) => boolean, last: (row: string) => boolean): [number, number] {
  const start = rows.findIndex(first);
  const end = rows.findIndex((row, i) => i >= start && last(row));
  expect(start, rows.join('\n')).toBeGreaterThanOrEqual(0);
  expect(end, rows.join('\n')).toBeGreaterThanOrEqual(start);
  return [start, end];
}

describe.each([80, 120])('at %i columns', (columns) => {
  it('the banner, /help and a long reply (rendered and --raw) break between words', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const piped = await runPiped([], `${MESSAGE}\n/help\n/quit\n`, where);
    const reply = piped.stdout.split('\n').find((line) => line.startsWith('Echo: '))!;
    // A terminal has the session browser: /load says so where a pipe's says where IDs come from.
    const help = piped.stdout.slice(piped.stdout.indexOf('Commands:')).replace('(IDs from /sessions)', '(without an ID: browse and search them)');
    expect(reply).toContain('(read 1 message)');

    for (const args of [[], ['--raw']]) {
      const { run, id } = await startAtPrompt(args, { ...where, columns });
      await run.say(MESSAGE, '(read 1 message)');
      await run.say('/help', phrase('kept for the next resume).'));
      await run.prompt();
      // The line typed at the prompt is the line reader's to lay out: only chatkeep's output is held here.
      const shown = { rows: await run.visible(), wrapped: await run.wrapped() };
      const banner = `chatkeep ${VERSION} · session ${id} · echo (offline) · autosave every 5 min`;
      expectWholeWords(shown, banner, columns, rowsBetween(shown.rows, (row) => row.startsWith('chatkeep '), (row) => row.endsWith('min')));
      expectWholeWords(shown, reply, columns, rowsBetween(shown.rows, (row) => row.startsWith('Echo: '), (row) => row.endsWith('(read 1 message)')));
      expectWholeWords(shown, help, columns, rowsBetween(shown.rows, (row) => row === 'Commands:', (row) => row.endsWith('resume).')));
      expect(await run.quit()).toBe(0);
    }
  });

  it('chatkeep --help and sessions --help break between words; a pipe gets them unwrapped', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    for (const args of [['--help'], ['sessions', '--help']]) {
      const piped = await runPiped(args, '', where);
      expect(piped.code).toBe(0);
      // Scripts read the help as it always was: its long lines whole.
      expect(piped.stdout.split('\n').some((line) => line.length > 120)).toBe(true);
      const run = spawnPty(args, { ...where, columns, rows: 50 });
      expect(await run.exited).toBe(0);
      expectWholeWords({ rows: await run.visible(), wrapped: await run.wrapped() }, piped.stdout, columns);
    }
  });
});

describe('a piped chat', () => {
  it('gets the reply and /help as they are: one line each, however long', async () => {
    const where = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const piped = await runPiped([], `${MESSAGE}\n/help\n/quit\n`, where);
    expect(piped.stdout).toContain(`Echo: ${MESSAGE} (read 1 message)\n`);
    expect(piped.stdout).toMatch(/\n {2}\/sessions \[--all\] \[text\] +list this project's sessions, newest first \(--all: every project\); with text, search their messages \(also \/ls\)\n/);
  });
});
