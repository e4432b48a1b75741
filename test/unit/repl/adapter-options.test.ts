/**
 * What a host hands the adapters and the controller, as its user sees it: a wrong or misspelt
 * option refused in one line (nothing opened, nothing created), `host` as the program's name,
 * `leave()` that never throws, and a /help that promises only what the adapter does.
 */
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import repl from 'node:repl';
import { describe, expect, it, vi } from 'vitest';
import { attach } from '../../../src/repl/adapters/node-repl.js';
import { attachReadline } from '../../../src/repl/adapters/readline.js';
import { SessionController, type ControllerOptions } from '../../../src/repl/controller.js';
import { BadOptionError } from '../../../src/session/api/errors.js';
import { openSessions } from '../../../src/store/open.js';
import { tmpHome } from '../../helpers/tmp-home.js';

/** A readline loop over pipes, and everything it shows. */
function readlineHost(): { rl: ReturnType<typeof createInterface>; input: PassThrough; output: PassThrough; shown: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { rl: createInterface({ input, output, terminal: false }), input, output, shown: () => shown };
}

/** Node's REPL over pipes, and everything it shows. */
function replHost(): { server: repl.REPLServer; input: PassThrough; shown: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { server: repl.start({ prompt: 'embed> ', input, output, terminal: false }), input, shown: () => shown };
}

describe('adapter options', () => {
  it('refuses resumeId (for resume) in one line: no new session is started under the user', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const host = readlineHost();
    const options = { home, cwd, output: host.output, host: 'node my-repl.mjs', resumeId: 'session-x' };
    const chat = await attachReadline(host.rl, options as Parameters<typeof attachReadline>[1]);
    expect(chat.controller).toBeUndefined();
    expect(await chat.leave()).toBe(2);
    expect(host.shown()).toBe('attachReadline: there is no option `resumeId`; the options are resume, continue, newWhenNone, fork, title, host, sessions, home, cwd, open, provider, autosave, commands, signals, writeFile, writeOutsideCwd, version, output.\n');
    const sessions = await openSessions({ home, cwd });
    expect(await sessions.list({ all: true, empty: true })).toEqual([]);
    await sessions.close();
  });

  it('refuses a wrong type in node:repl the same way, and closes the REPL with code 2', async () => {
    const host = replHost();
    const { controller, closed } = await attach(host.server, { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), host: { program: 'node r.mjs' }, continue: 'yes' as unknown as boolean });
    expect(controller).toBeUndefined();
    expect(await closed).toBe(2);
    expect(host.shown()).toContain('attach: `continue` takes true or false, not "yes".\n');
  });

  it('takes host as the program name: the way back is written for it', async () => {
    const host = readlineHost();
    const chat = await attachReadline(host.rl, { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), output: host.output, host: 'node my-repl.mjs' });
    await chat.record('hi', 'hello');
    host.rl.close();
    expect(await chat.leave()).toBe(0);
    const id = chat.controller!.session.id;
    expect(host.shown()).toContain(`Saved ${id} (2 messages).\nResume with: node my-repl.mjs --session-id ${id}\n`);
  });

  it('records the assistant the host names (provider), so show says it instead of the offline echo', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const host = readlineHost();
    const chat = await attachReadline(host.rl, { home, cwd, output: host.output, host: 'node my-repl.mjs', provider: { name: 'openai', model: 'gpt-4o-mini' } });
    await chat.record('hi', 'hello');
    host.rl.close();
    expect(await chat.leave()).toBe(0);
    const sessions = await openSessions({ home, cwd });
    const [row] = await sessions.list();
    expect((await sessions.read(row!.id)).provider).toMatchObject({ name: 'openai', model: 'gpt-4o-mini' });
    await sessions.close();
  });
});

describe('controller options', () => {
  it('refuses a controller without host before opening anything, so leave() is never reached with nothing to write', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home, cwd });
    const opening = SessionController.open({ sessions } as unknown as ControllerOptions);
    await expect(opening).rejects.toBeInstanceOf(BadOptionError);
    await expect(opening).rejects.toThrow('SessionController.open: `host` takes');
    expect(await sessions.list({ all: true, empty: true })).toEqual([]);
    await sessions.close();
  });

  it('leaves with a host given as a string', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    const controller = await SessionController.open({ sessions, host: 'node my-repl.mjs', autosave: 'off' });
    await controller.append({ role: 'user', content: 'hi' });
    const id = controller.session.id;
    expect((await controller.leave()).lines.map((l) => l.text)).toEqual([`Saved ${id} (1 message).`, `Resume with: node my-repl.mjs --session-id ${id}`]);
    await sessions.close();
  });
});

describe('/help in an adapter', () => {
  it("readline's /help promises only what the adapter does", async () => {
    const host = readlineHost();
    const chat = await attachReadline(host.rl, { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), output: host.output, host: 'node my-repl.mjs' });
    expect(await chat.handle('/help')).toBe(true);
    const help = host.shown().slice(host.shown().indexOf('Commands:'));
    expect(help).toContain('/load [ID]');
    expect(help).toContain('save this session and switch to another (IDs from /sessions)');
    expect(help).toContain("Any other line is the host's to answer.");
    expect(help).not.toMatch(/browse|Ctrl-C|\/\/|half-typed|sent to the assistant/);
    host.rl.close();
    await chat.leave();
  });

  it("node:repl's .help lists .load without a browser it does not have", async () => {
    const host = replHost();
    const { closed } = await attach(host.server, { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), host: 'node r.mjs', autosave: 'off' });
    host.input.write('.help\n');
    host.input.end();
    await closed;
    expect(host.shown()).toMatch(/\.load +save this session and switch to another \(IDs from \.sessions\)/);
    expect(host.shown()).not.toContain('browse');
  });
});

describe('what node:repl prints, journaled', () => {
  it("keeps the Uncaught lines of a thrown error, an unknown name and a rejected promise, each after the line that caused it", async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const host = replHost();
    const { controller, closed } = await attach(host.server, { home, cwd, host: 'node r.mjs', autosave: 'off' });
    const id = controller!.session.id;
    for (const line of ["throw new Error('boom')", 'nope', '1 + 1', "await Promise.reject(new Error('later'))"]) host.input.write(`${line}\n`);
    await vi.waitFor(() => expect(host.shown()).toContain('Uncaught Error: later'));
    host.input.end();
    expect(await closed).toBe(0);
    expect(host.shown()).toContain('Uncaught Error: boom\n');
    expect(host.shown()).toContain('Uncaught ReferenceError: nope is not defined\n');
    const sessions = await openSessions({ home, cwd });
    const stored = (await sessions.read(id)).messages.map((m) => `${m.role}: ${m.content.split('\n')[0]}`);
    expect(stored).toEqual([
      "user: throw new Error('boom')",
      'assistant: Uncaught Error: boom',
      'user: nope',
      'assistant: Uncaught ReferenceError: nope is not defined',
      'user: 1 + 1',
      'assistant: 2',
      "user: await Promise.reject(new Error('later'))",
      'assistant: Uncaught Error: later',
    ]);
    await sessions.close();
  });
});
