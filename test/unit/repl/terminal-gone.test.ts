/**
 * A terminal that goes away, in each order its signs can arrive: the read that fails (EIO), the
 * end of input, SIGHUP, and the host's own close. Whatever came first, each adapter saves and
 * closes the session before it lets go, and nothing reaches the host as an unheard error (which
 * would end the program with the session left open: `interrupted` in the listing).
 */
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import repl from 'node:repl';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attach } from '../../../src/repl/adapters/node-repl.js';
import { attachReadline } from '../../../src/repl/adapters/readline.js';
import { openSessions } from '../../../src/store/open.js';
import { tmpHome } from '../../helpers/tmp-home.js';

/** A terminal's input, as a REPL sees it: a TTY in raw mode, whose reads can fail. */
function terminalInput(): PassThrough & { isTTY: true; isRaw: boolean; setRawMode(mode: boolean): unknown } {
  return Object.assign(new PassThrough(), {
    isTTY: true as const,
    isRaw: false,
    setRawMode(this: { isRaw: boolean }, mode: boolean) {
      this.isRaw = mode;
      return this;
    },
  });
}

/** What a read of a terminal that went away fails with. */
const eio = (): NodeJS.ErrnoException => Object.assign(new Error('read EIO'), { code: 'EIO', errno: -5, syscall: 'read' });

/**
 * The ways a terminal's going away shows, in the orders seen (a read that failed is the input's
 * last event: no end follows it).
 */
type Sign = 'read fails' | 'input ends' | 'SIGHUP';
const ORDERS: Sign[][] = [
  ['read fails', 'SIGHUP'],
  ['input ends', 'read fails', 'SIGHUP'],
  ['input ends', 'SIGHUP'],
  ['SIGHUP', 'read fails'],
  ['SIGHUP', 'input ends', 'read fails'],
];

/**
 * Each sign in a turn of the event loop of its own, as a terminal's arrive. An input the host
 * destroyed reads no more: nothing more comes from it.
 */
async function show(signs: readonly Sign[], input: PassThrough, signals: EventEmitter): Promise<void> {
  for (const sign of signs) {
    if (sign !== 'SIGHUP' && input.destroyed) continue;
    if (sign === 'read fails') input.emit('error', eio());
    else if (sign === 'input ends') await new Promise((resolve) => input.once('end', resolve).end());
    else signals.emit('SIGHUP', 'SIGHUP');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The one session's status and message count, as `sessions list` reads them from disk. */
async function listed(home: string, cwd: string): Promise<{ status: string; messageCount: number }[]> {
  const sessions = await openSessions({ home, cwd });
  try {
    return (await sessions.list({ all: true })).map(({ status, messageCount }) => ({ status, messageCount }));
  } finally {
    await sessions.close();
  }
}

/** Everything the host heard as an error event or a rejection nobody handled, meanwhile. */
function unheard(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const keep = (err: unknown): void => void errors.push(err);
  process.on('uncaughtException', keep);
  process.on('unhandledRejection', keep);
  return {
    errors,
    stop() {
      process.off('uncaughtException', keep);
      process.off('unhandledRejection', keep);
    },
  };
}

/** What a host is given, and how it is left: attaches, keeps two messages, resolves to its exit code once it has left. */
type Host = (terminal: { home: string; cwd: string; input: PassThrough; output: PassThrough; signals: EventEmitter }) => Promise<() => Promise<number>>;

/** The host's terminal goes away in `order`: it leaves with 0, nothing unheard, the session closed on disk. */
async function goesAway(order: readonly Sign[], host: Host): Promise<void> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-project-');
  const input = terminalInput();
  const output = new PassThrough();
  output.resume();
  const signals = new EventEmitter();
  const left = await host({ home, cwd, input, output, signals });
  const seen = unheard();
  try {
    const code = left();
    await show(order, input, signals);
    expect(await code).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    seen.stop();
  }
  expect(seen.errors).toEqual([]);
  expect(await listed(home, cwd)).toEqual([{ status: 'closed', messageCount: 2 }]);
}

describe('node:repl: the terminal goes away', () => {
  for (const order of ORDERS) {
    // Node's REPL passes its input's errors on as its own: unheard, one ends the program.
    it(`saves and closes the session: ${order.join(', then ')}`, () =>
      goesAway(order, async ({ home, cwd, input, output, signals }) => {
        const server = repl.start({ prompt: 'embed> ', input, output, terminal: true });
        const { controller, closed } = await attach(server, { home, cwd, host: 'node r.mjs', signals });
        await controller!.append({ role: 'user', content: '6 * 7' }, { role: 'assistant', content: '42' });
        return () => closed;
      }));
  }
});

describe('readline: the terminal goes away', () => {
  for (const order of ORDERS) {
    it(`saves and closes the session: ${order.join(', then ')}`, () =>
      goesAway(order, async ({ home, cwd, input, output, signals }) => {
        const rl = createInterface({ input, output, terminal: true, prompt: 'you> ' });
        const chat = await attachReadline(rl, { home, cwd, output, host: 'node r.mjs', signals });
        await chat.record('hello', 'HELLO!');
        // The host's loop, as in examples/embed-readline.mjs.
        return async () => {
          for await (const line of rl) await chat.handle(line);
          return chat.leave();
        };
      }));
  }
});
