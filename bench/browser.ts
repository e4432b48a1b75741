/**
 * The session browser (docs/design.md §14): its first paint over many sessions (the newest rows
 * alone) beside listing those, its first full paint beside the listing of every row, and
 * keystroke → repaint for a text query beside the search it waits for. The real browser
 * (`browseSessions`, @inquirer/core and all) runs on in-memory streams standing in for a 120×40
 * terminal; a frame counts once it is written.
 */
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { browseSessions } from '../src/browser/browse.js';
import { FIRST_ROWS } from '../src/browser/config.js';
import type { SessionManager } from '../src/session/runtime/manager-api.js';
import type { BenchConfig } from './config.js';
import { plantedProject, RARE } from './planted.js';
import { measure, measurePair, row, type BenchRow } from './harness.js';

/** A browser open on fake terminal streams, and a way to wait for the frame that satisfies a test. */
interface OpenBrowser {
  type(text: string): void;
  /** Resolves to the first frame written from now on that passes `done`. */
  frame(done: (frame: string) => boolean): Promise<string>;
  close(): Promise<void>;
}

function openBrowser(sessions: SessionManager): OpenBrowser {
  const input = Object.assign(new PassThrough(), { isTTY: false });
  const output = Object.assign(new PassThrough(), { columns: 120, rows: 40, isTTY: false });
  const ending = new AbortController();
  let waiting: { done: (frame: string) => boolean; resolve: (frame: string) => void } | undefined;
  output.on('data', (chunk: Buffer) => {
    const frame = chunk.toString();
    if (waiting?.done(frame)) {
      waiting.resolve(frame);
      waiting = undefined;
    }
  });
  const browsing = browseSessions({
    sessions,
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    heading: 'Resume which session?',
    writeFile: () => Promise.reject(new Error('not in a benchmark')),
    version: 'bench',
    color: new Chalk({ level: 0 }),
    signal: ending.signal,
  });
  return {
    type: (text) => input.write(text),
    frame: (done) => new Promise<string>((resolve) => (waiting = { done, resolve })),
    async close() {
      ending.abort();
      await browsing;
    },
  };
}

/** A frame that shows the whole listing (`N of N`), or the settled answer to a query. */
const painted = (n: number) => (frame: string) => frame.includes(`· ${n} of ${n} ·`) && frame.includes('Enter resume');
const answered = (frame: string) => /· \d+ of \d+ ·/.test(frame) && !frame.includes('searching');

export async function benchBrowser(config: BenchConfig, n: number): Promise<BenchRow[]> {
  const { manager } = await plantedProject(config, n);
  // The listing's and the search's indexes built once, as any earlier run leaves them: once the
  // sessions directory's mtime has settled, so that index.json records it and its head is trusted.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const rows = await manager.list();
  await manager.search(RARE);
  let messages = 0;
  for (const r of rows) messages += r.messageCount;

  // The first frame: the newest rows, read from the head of the listing (the rest follow behind it).
  const newest = rows[0]!.id;
  // The listing of the rest goes on once the first frame is out: awaited before the next run, untimed.
  let rest: Promise<void> = Promise.resolve();
  const firstFrame = await measurePair(
    async () => {
      const browser = openBrowser(manager);
      const first = await browser.frame((frame) => frame.includes(newest) && frame.includes('Enter resume'));
      // Every row already in (a project of fewer than FIRST_ROWS): no other frame follows.
      rest = (painted(rows.length)(first) ? Promise.resolve('') : browser.frame(painted(rows.length))).then(() => browser.close());
    },
    () => manager.list({ limit: FIRST_ROWS }),
    config,
    () => rest,
  );
  await rest;
  const firstPaint = await measurePair(
    async () => {
      const browser = openBrowser(manager);
      await browser.frame(painted(rows.length));
      await browser.close();
    },
    () => manager.list(),
    config,
  );

  // Keystroke → repaint: the last letter of the word typed, timed to the frame that answers it.
  const browser = openBrowser(manager);
  await browser.frame(painted(rows.length));
  browser.type(RARE.slice(0, -1));
  await browser.frame(answered);
  const keystroke = await measure(
    async () => {
      const shown = browser.frame(answered);
      browser.type(RARE.slice(-1));
      await shown;
    },
    config,
    async () => {
      const back = browser.frame(answered);
      browser.type('\x7f');
      await back;
    },
  );
  await browser.close();
  const search = await measure(() => manager.search(RARE, { limit: 0 }), config);
  const size = `${rows.length.toLocaleString('en-US')} sessions, ${messages.toLocaleString('en-US')} messages`;
  return [
    row('browser: first paint', rows.length, firstFrame.ms, firstFrame.floorMs, 2, {
      limitMs: 100,
      note: `${size}; the newest ${FIRST_ROWS} rows, the rest listed behind; floor: listing them (list({ limit: ${FIRST_ROWS} }))`,
    }),
    row('browser: first full paint', rows.length, firstPaint.ms, firstPaint.floorMs, 2, {
      note: `${size}; floor: listing the same rows (sessions.list)`,
    }),
    row('browser: keystroke → repaint, text query', rows.length, keystroke, search, 1.5, {
      limitMs: 50,
      note: `${size}; floor: the full-text search it waits for (all matches)`,
    }),
  ];
}
