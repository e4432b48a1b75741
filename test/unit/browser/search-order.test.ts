/**
 * The browser's searches answer out of order: after Tab, the query is searched over the old
 * scope's rows and again over the new scope's once its listing arrives. Whichever answers last,
 * what is shown is the answer to the last search asked, and a key acts on what is shown.
 * Also: the rest of the listing arriving repaints once (each state set is a frame of its own).
 */
import { PassThrough } from 'node:stream';
import * as core from '@inquirer/core';
import { Chalk } from 'chalk';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserPrompt } from '../../../src/browser/view.js';
import type { BrowserConfig } from '../../../src/browser/config.js';
import type { Found } from '../../../src/browser/find-sessions.js';
import { loadWidths, type Widths } from '../../../src/terminal/table.js';
import type { SessionManager } from '../../../src/session/runtime/manager-api.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';

const NOW = new Date('2026-11-28T12:00:00Z');

function row(id: string, project: string): SessionSummary {
  return { id, title: `talk ${id}`, createdAt: NOW, updatedAt: NOW, messageCount: 2, status: 'closed', project };
}

/** A promise and the function that settles it. */
function later<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits until the screen written so far (its last frame) holds `text`. */
async function until(screen: () => string, text: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (screen().includes(text)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Never showed ${text}:\n${screen()}`);
}

let widths: Widths;
beforeAll(async () => {
  widths = await loadWidths();
});

/** A browser's config over these rows (the rest as every test here has it), its streams, and what it wrote so far. */
function open(own: Pick<BrowserConfig, 'rows' | 'list' | 'find'> & Partial<BrowserConfig>): {
  config: BrowserConfig;
  input: PassThrough;
  output: PassThrough;
  written: () => string;
} {
  const config: BrowserConfig = {
    widths,
    heading: 'Resume which session?',
    host: { sessions: {} as SessionManager, writeFile: async (name) => name, version: '0' },
    projectPath: '/here',
    all: false,
    holder: async () => undefined,
    color: new Chalk({ level: 0 }),
    size: () => ({ columns: 100, lines: 20 }),
    onResize: () => () => undefined,
    now: () => NOW,
    notes: [],
    ...own,
  };
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { config, input, output, written: () => written };
}

describe('session browser: searches answered out of order', () => {
  it('shows the answer to the last search asked, and Enter resumes the row shown', async () => {
    const here = row('session-20261128-110000', '/here');
    const there = row('session-20261128-100000', '/there');
    const everyProject = later<SessionSummary[]>();
    const asked: { rows: number; query: string; answer: ReturnType<typeof later<Found>> }[] = [];
    const { config, input, output, written } = open({
      rows: [here],
      list: (all) => (all ? everyProject.promise : Promise.resolve([here])),
      find: (rows, query) => {
        const answer = later<Found>();
        asked.push({ rows: rows.length, query, answer });
        return answer.promise;
      },
    });
    const screen = (): string => written().slice(written().lastIndexOf('Resume which session?'));
    const choice = browserPrompt(core)(config, { input, output });

    await until(screen, here.id);
    input.write('\t');
    await until(screen, 'every project');
    input.write('talk');
    // Asked over this project's row; then the listing of every project arrives and it is asked again.
    await until(screen, 'searching…');
    everyProject.resolve([here, there]);
    for (let i = 0; i < 100 && asked.at(-1)!.rows < 2; i++) await new Promise((r) => setTimeout(r, 10));
    // A search a keystroke, over this project's row; then, the listing of every project in, once more.
    expect(asked.map((a) => `${a.query} ${a.rows}`)).toEqual(['t 1', 'ta 1', 'tal 1', 'talk 1', 'talk 2']);
    // The last search answers first; the earlier ones (over the old scope, which lacks `there`) after it.
    asked[4]!.answer.resolve({ ids: [there.id], more: false });
    await until(screen, `› ${there.id}`);
    for (const earlier of asked.slice(0, 4)) earlier.answer.resolve({ ids: [], more: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen()).not.toContain('searching…');
    expect(screen()).toContain(`› ${there.id}`);
    input.write('\r');
    expect(await choice).toEqual({ kind: 'resume', id: there.id });
  });

  it('repaints once when the rest of the listing arrives', async () => {
    const newest = Array.from({ length: 3 }, (_, i) => row(`session-20261128-11000${i}`, '/here'));
    const every = later<SessionSummary[]>();
    const { config, input, output, written } = open({
      rows: newest,
      partial: true,
      list: () => every.promise,
      find: async () => ({ ids: [], more: false }),
    });
    const frames = (): number => written().split('Resume which session?').length - 1;
    const screen = (): string => written().slice(written().lastIndexOf('Resume which session?'));
    const choice = browserPrompt(core)(config, { input, output });
    await until(screen, 'listing the rest');
    const before = frames();
    every.resolve([...newest, row('session-20261128-100000', '/here')]);
    await until(screen, '4 of 4');
    await new Promise((r) => setTimeout(r, 50));
    // The rows and the count in one frame: no frame with every row still saying it is listing the rest.
    expect(frames() - before).toBe(1);
    input.write('\x1b');
    await choice.catch(() => undefined);
  });
});
