/**
 * The session browser's first paint over a big project (docs/design.md §14): it paints the
 * newest sessions having read only the head of the listing (the bytes of `index.json` read are
 * counted), says the count is partial while the rest is listed, and then scrolls to the oldest.
 * The real browser and the real file store, on in-memory streams standing in for a terminal.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idAt, manySessions, openProject } from '../../bench/fixtures.js';
import { browseSessions } from '../../src/browser/browse.js';
import { openSessions } from '../../src/index.js';
import type { ListOptions, SessionManager } from '../../src/session/runtime/manager-api.js';
import { ageSessionDirs } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Bytes read from any `index.json`, through `readFile`, an opened handle or a descriptor. */
const reads = vi.hoisted(() => ({ bytes: 0, fds: new Set<number>() }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const counted = {
    ...fs,
    openSync: ((...args: Parameters<typeof fs.openSync>) => {
      const fd = fs.openSync(...args);
      if (String(args[0]).endsWith('index.json')) reads.fds.add(fd);
      return fd;
    }) as typeof fs.openSync,
    readSync: ((fd: number, ...rest: unknown[]) => {
      const n = (fs.readSync as (fd: number, ...a: unknown[]) => number)(fd, ...rest);
      if (reads.fds.has(fd)) reads.bytes += n;
      return n;
    }) as typeof fs.readSync,
    closeSync: ((fd: number) => {
      reads.fds.delete(fd);
      fs.closeSync(fd);
    }) as typeof fs.closeSync,
  };
  return { ...counted, default: counted };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const isIndex = (path: unknown): boolean => String(path).endsWith('index.json');
  const counted = {
    ...fs,
    readFile: (async (path: Parameters<typeof fs.readFile>[0], options?: Parameters<typeof fs.readFile>[1]) => {
      const data = await fs.readFile(path, options);
      if (isIndex(path)) reads.bytes += Buffer.byteLength(data);
      return data;
    }) as typeof fs.readFile,
    open: (async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args);
      if (!isIndex(args[0])) return handle;
      const read = handle.read.bind(handle) as (...a: unknown[]) => Promise<{ bytesRead: number }>;
      return Object.assign(handle, {
        read: async (...a: unknown[]) => {
          const done = await read(...a);
          reads.bytes += done.bytesRead;
          return done;
        },
      });
    }) as typeof fs.open,
  };
  return { ...counted, default: counted };
});

const COUNT = 5_000;

/** A promise and the function that settles it. */
function later(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let ending = new AbortController();
beforeEach(() => (ending = new AbortController()));
afterEach(() => ending.abort());

/** The browser on in-memory streams (a 120×40 terminal): what it shows, and keys to type. */
function open(sessions: SessionManager) {
  const input = Object.assign(new PassThrough(), { isTTY: false });
  const output = Object.assign(new PassThrough(), { columns: 120, rows: 40, isTTY: false });
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const screen = (): string => written.slice(written.lastIndexOf('Resume which session?'));
  const until = async (text: string): Promise<string> => {
    for (let i = 0; i < 1_000; i++) {
      if (screen().includes(text)) return screen();
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`Never showed ${text}:\n${screen()}`);
  };
  const browsing = browseSessions({
    sessions,
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    heading: 'Resume which session?',
    writeFile: () => Promise.reject(new Error('not here')),
    version: 'test',
    color: new Chalk({ level: 0 }),
    signal: ending.signal,
  });
  return { input, screen, until, browsing };
}

describe('session browser: first paint of a big project', () => {
  it('paints the newest of 5,000 sessions from the head of index.json, then reaches the oldest', async () => {
    const home = tmpHome();
    const cwd = join(tmpHome('chatkeep-project-'), 'work');
    const made = await openProject(home, cwd);
    await manySessions(made.manager, made.template, COUNT);
    // The listing's index built once, as any earlier run leaves it (the sessions directory's mtime settled).
    ageSessionDirs(home);
    const every = await made.manager.list();
    await made.manager.close();
    const index = join(home, 'projects');
    // Opened as a host opens it (openProject would make a session, and the index would be behind again).
    const manager = await openSessions({ home, cwd });

    // The full listing waits until the first paint has been looked at: what it shows came from the head alone.
    const gate = later();
    const asked: (number | undefined)[] = [];
    const sessions = new Proxy(manager, {
      get(target, key, receiver) {
        if (key !== 'list') return Reflect.get(target, key, receiver) as unknown;
        return async (options: ListOptions = {}) => {
          asked.push(options.limit);
          if (options.limit === undefined) await gate.promise;
          return target.list(options);
        };
      },
    }) as SessionManager;

    reads.bytes = 0;
    const { input, screen, until, browsing } = open(sessions);

    const newest = every[0]!.id;
    const oldest = idAt(0);
    const first = await until(newest);
    expect(first).toContain('of the newest 100 · listing the rest…');
    expect(first).not.toContain(oldest);
    const indexBytes = statSync(join(index, readdirSync(index)[0]!, 'index.json')).size;
    expect(indexBytes).toBeGreaterThan(1_000_000);
    // The head alone (64 KB), not the 1.7 MB listing.
    expect(reads.bytes).toBeGreaterThan(0);
    expect(reads.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(asked).toEqual([100, undefined]);

    gate.resolve();
    await until(`· ${every.length} of ${every.length} ·`);
    expect(screen()).not.toContain('listing the rest');
    // End scrolls to the oldest session.
    input.write('\x1b[F');
    await until(`› ${oldest}`);
    ending.abort();
    await manager.close();
    expect((await browsing).choice).toEqual({ kind: 'cancel' });
  }, 240_000);
  it('paints the first 100 of 150 matches at once, says more are coming, then lists every one', async () => {
    const home = tmpHome();
    const cwd = join(tmpHome('chatkeep-project-'), 'work');
    const made = await openProject(home, cwd);
    await manySessions(made.manager, made.template, 150, (_i, messages) => {
      messages[1]!.content = `${messages[1]!.content} and then Zanzibar came up`;
    });
    await made.manager.search('zanzibar');
    await made.manager.close();
    const manager = await openSessions({ home, cwd });
    // The search for every match waits until the first answer has been looked at.
    const gate = later();
    const limits: (number | undefined)[] = [];
    const sessions = new Proxy(manager, {
      get(target, key, receiver) {
        if (key !== 'search') return Reflect.get(target, key, receiver) as unknown;
        return async (query: string, options: { all?: boolean; limit?: number } = {}) => {
          limits.push(options.limit);
          if (options.limit === 0) await gate.promise;
          return target.search(query, options);
        };
      },
    }) as SessionManager;
    const { input, screen, until, browsing } = open(sessions);
    await until('· 151 of 151 ·');
    input.write('zanzibar');
    const first = await until('· 100 of 151 · finding more…');
    expect(first).toContain('› session-');
    // Each keystroke asks for the first 100; every match (limit 0), once asked, waits at the gate.
    expect(limits).toContain(100);
    expect(limits.every((limit) => limit === 100 || limit === 0)).toBe(true);
    gate.resolve();
    await until('· 150 of 151 ·');
    expect(screen()).not.toContain('finding more');
    // The oldest match, past the first 100, is reached.
    input.write('\x1b[F');
    await until(`› ${idAt(0)}`);
    ending.abort();
    await manager.close();
    expect((await browsing).choice).toEqual({ kind: 'cancel' });
  }, 240_000);
});
