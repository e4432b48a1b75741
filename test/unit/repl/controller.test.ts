/**
 * The REPL component's controller and command list, on the real manager over a fresh data
 * home: what a host is told (events, exit lines written for its own program), what is on disk
 * and who holds which lock after a switch.
 */
import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../src/repl/commands/index.js';
import { commandSet } from '../../../src/repl/command-set.js';
import { createCommandContext } from '../../../src/repl/context.js';
import { SessionController, type AutosaveOption, type ControllerEvent, type OpenOptions } from '../../../src/repl/controller.js';
import { dispatchLine, runCommand } from '../../../src/repl/dispatch.js';
import type { SlashCommand } from '../../../src/repl/types.js';
import { openSessions } from '../../../src/store/open.js';
import { createScreen } from '../../../src/terminal/screen.js';
import { PassThrough, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { attachReadline } from '../../../src/repl/adapters/readline.js';
import { tmpHome } from '../../helpers/tmp-home.js';

/** An autosave timer that records which sessions it ran on and whether it was stopped. */
function recordingTimer(): { option: AutosaveOption; runs: { id: string; stopped: boolean }[] } {
  const runs: { id: string; stopped: boolean }[] = [];
  return {
    runs,
    option: {
      description: 'every 5 min',
      start: (session) => {
        const run = { id: session.id, stopped: false };
        runs.push(run);
        return { description: 'every 5 min', nextDate: () => null, stop: async () => void (run.stopped = true) };
      },
    },
  };
}

async function opened(options: OpenOptions = {}, home = tmpHome(), cwd = tmpHome('chatkeep-project-')) {
  const sessions = await openSessions({ home, cwd });
  const timer = recordingTimer();
  const controller = await SessionController.open({ sessions, host: { program: 'node my-repl.mjs', resumeFlag: '-r' }, autosave: timer.option, ...options });
  const events: ControllerEvent[] = [];
  controller.on((event) => events.push(event));
  return { sessions, controller, timer, events, home, cwd };
}

describe('SessionController', () => {
  it('continues the latest session, or refuses when there is none and newWhenNone is false (nothing created)', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const refused = opened({ continue: true, newWhenNone: false }, home, cwd);
    await expect(refused).rejects.toMatchObject({ code: 'E_NO_SESSION', exitCode: 2, advice: { to: 'Start one with:', run: [] } });
    const sessions = await openSessions({ home, cwd });
    expect(await sessions.list({ all: true })).toEqual([]);
    const first = await opened({ continue: true }, home, cwd);
    expect(first.controller.opened).toBe('new');
    await first.controller.append({ role: 'user', content: 'kept' });
    await first.controller.leave();
    const again = await opened({ continue: true, newWhenNone: false }, home, cwd);
    expect(again.controller.opened).toBe('resumed');
    expect(again.controller.session.id).toBe(first.controller.session.id);
    await again.controller.leave();
  });

  it('opens a fork of a session (its first `at` messages), the parent left as it was', async () => {
    const parent = await opened();
    await parent.controller.append({ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' });
    await parent.controller.leave();
    const from = parent.controller.session.id;
    const fork = await opened({ fork: { from, at: 2 } }, parent.home, parent.cwd);
    expect(fork.controller.opened).toBe('forked');
    expect(fork.controller.session.id).not.toBe(from);
    expect(fork.controller.session.messages.map((m) => m.content)).toEqual(['one', 'two']);
    await fork.controller.leave();
    expect((await parent.sessions.read(from)).messages).toHaveLength(3);
  });

  it('leaves with the exit lines written for the host, and saves what was appended', async () => {
    const { controller, sessions } = await opened();
    await controller.append({ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' });
    const id = controller.session.id;
    expect(await controller.leave()).toEqual({
      code: 0,
      lines: [
        { level: 'status', text: `Saved ${id} (2 messages).` },
        { level: 'status', text: `Resume with: node my-repl.mjs -r ${id}` },
      ],
    });
    expect((await sessions.read(id)).messages.map((m) => m.content)).toEqual(['hi', 'hello']);
    expect(await sessions.holder(id)).toBeUndefined();
  });

  it('keeps nothing of a session that never held a message, and says so', async () => {
    const { controller } = await opened();
    const { lines } = await controller.leave();
    expect(lines).toEqual([{ level: 'status', text: `Nothing was kept: no message was sent in ${controller.session.id}.` }]);
  });

  it('switches on load: the old session saved and released, the new one held, the autosave restarted on it', async () => {
    const first = await opened();
    await first.controller.append({ role: 'user', content: 'in b' });
    const b = first.controller.session.id;
    await first.controller.leave();
    const second = await opened({}, first.home, first.cwd);
    const a = second.controller.session.id;
    await second.controller.append({ role: 'user', content: 'in a' });
    second.controller.startAutosave();
    const closed = await second.controller.load(b);
    expect(closed).toMatchObject({ saved: true, id: a, messageCount: 1 });
    expect(second.controller.session.id).toBe(b);
    expect(second.events).toEqual([expect.objectContaining({ type: 'switched', from: a, closed, reason: 'load' })]);
    expect(await second.sessions.holder(a)).toBeUndefined();
    expect((await second.sessions.holder(b))?.pid).toBe(process.pid);
    expect(second.timer.runs).toEqual([
      { id: a, stopped: true },
      { id: b, stopped: false },
    ]);
    await second.controller.leave();
    expect(second.timer.runs[1]!.stopped).toBe(true);
  });

  it('continues the latest session of the project, and starts a new one when there is none', async () => {
    const fresh = await opened({ continue: true });
    await fresh.controller.append({ role: 'user', content: 'first' });
    const id = fresh.controller.session.id;
    await fresh.controller.leave();
    expect(fresh.controller.opened).toBe('new');
    const again = await opened({ continue: true }, fresh.home, fresh.cwd);
    expect(again.controller.opened).toBe('resumed');
    expect(again.controller.session.id).toBe(id);
    expect(again.controller.session.messages.map((m) => m.content)).toEqual(['first']);
    await again.controller.leave();
  });

  it('forks: the chat goes on in a new session holding the conversation, the old one released', async () => {
    const { controller, sessions, events } = await opened();
    await controller.append({ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' });
    const from = controller.session.id;
    await controller.fork({ at: 1 });
    expect(controller.session.id).not.toBe(from);
    expect(controller.session.messages.map((m) => m.content)).toEqual(['one']);
    expect(events.at(-1)).toMatchObject({ type: 'switched', from, reason: 'fork' });
    expect(await sessions.holder(from)).toBeUndefined();
    await controller.leave();
  });
});

describe("a host's own command list", () => {
  const shout: SlashCommand = { name: 'shout', summary: 'say it loud', run: (_ctx, args) => ({ type: 'message', level: 'info', content: args.toUpperCase() }) };
  const commands = commandSet(builtinCommands, { drop: ['model', 'provider', 'system'], rename: { load: 'open' }, add: [shout] });

  async function dispatch(line: string) {
    const { controller } = await opened();
    const out = new PassThrough();
    const context = createCommandContext({ controller, screen: createScreen({ stdout: out, stderr: out, terminal: false, colorLevel: 0 }), commands });
    return dispatchLine(line, { controller, context });
  }

  it('drops, renames and adds, and /help, "did you mean" and the commands follow it', async () => {
    expect(commands.map((c) => c.name)).not.toContain('model');
    expect(commands.find((c) => c.name === 'open')).toMatchObject({ builtinName: 'load', args: '[ID]' });
    expect(await dispatch('/shout hey')).toEqual({ kind: 'done', output: [{ level: 'info', text: 'HEY' }] });
    expect(await dispatch('/opne')).toEqual({ kind: 'done', output: [{ level: 'error', text: 'Unknown command /opne. Type /help. Did you mean /open?' }] });
    expect(await dispatch('/model x')).toMatchObject({ output: [{ level: 'error', text: expect.stringContaining('Unknown command /model') }] });
    const help = await dispatch('/help');
    expect(help.kind === 'done' && help.output[0]!.text).toMatch(/\/open \[ID\] +save this session and switch/);
    expect(help.kind === 'done' && help.output[0]!.text).toMatch(/\/shout +say it loud/);
  });

  it("writes a command's advice the way the host types commands (node:repl's dot commands)", async () => {
    const { controller } = await opened();
    const out = new PassThrough();
    const context = createCommandContext({ controller, screen: createScreen({ stdout: out, stderr: out, terminal: false, colorLevel: 0 }), commands: builtinCommands, prefix: '.' });
    const load = builtinCommands.find((c) => c.name === 'load')!;
    expect(await runCommand(load, '', { controller, context })).toEqual({ kind: 'done', output: [{ level: 'info', text: 'Usage: .load ID (find IDs with .sessions).' }] });
    // An error's advice too, from its data: the host's own command, never chatkeep's subcommand.
    expect(await runCommand(load, 'no-such-id', { controller, context })).toEqual({
      kind: 'done',
      output: [{ level: 'error', text: `No session \`no-such-id\`. List sessions with: .sessions --all\nStill in ${controller.session.id}.` }],
    });
  });
});

describe('the readline adapter', () => {
  it('says "Resumed" only for a session that was there: continue with none starts a new one, shown as new', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = async (): Promise<string> => {
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
      const rl = createInterface({ input, output, terminal: false });
      const chat = await attachReadline(rl, { home, cwd, continue: true, output, host: { program: 'node my-repl.mjs' } });
      await chat.record('hi', 'hello');
      rl.close();
      await chat.leave();
      return shown;
    };
    const first = await run();
    expect(first).toMatch(/^session (session-\S+) · 0 messages · autosave every 5 min\n/);
    expect(first).not.toContain('Resumed');
    const id = /^session (\S+)/.exec(first)![1]!;
    expect(await run()).toMatch(new RegExp(`^session ${id} · 2 messages · autosave every 5 min\nResumed session ${id} \\(2 messages`));
  });
});

describe('commands through the controller', () => {
  it("/save and /reset are the controller's: a host hears the save, and a renamed /fork switches as a fork", async () => {
    const { controller, events } = await opened();
    const commands = commandSet(builtinCommands, { rename: { fork: 'branch', save: 'keep' } });
    const out = new PassThrough();
    const context = createCommandContext({ controller, screen: createScreen({ stdout: out, stderr: out, terminal: false, colorLevel: 0 }), commands });
    await controller.append({ role: 'user', content: 'one' });
    await dispatchLine('/keep', { controller, context });
    expect(events).toEqual([expect.objectContaining({ type: 'saved', trigger: 'save', result: expect.objectContaining({ saved: true, messageCount: 1 }) })]);
    const from = controller.session.id;
    await dispatchLine('/branch', { controller, context });
    expect(events.at(-1)).toMatchObject({ type: 'switched', from, reason: 'fork' });
    expect(await dispatchLine('/reset', { controller, context })).toEqual({ kind: 'done', output: [{ level: 'info', text: `Archived 1 message inside ${controller.session.id}; the conversation starts afresh.` }] });
    expect(controller.session.messages).toEqual([]);
    await controller.leave();
  });
});

describe("advice in a renaming host's words", () => {
  const renamed = commandSet(builtinCommands, { rename: { load: 'open', sessions: 'list', fork: 'branch' } });

  async function run(line: string, prefix?: string) {
    const { controller } = await opened();
    const out = new PassThrough();
    const context = createCommandContext({ controller, screen: createScreen({ stdout: out, stderr: out, terminal: false, colorLevel: 0 }), commands: renamed, ...(prefix ? { prefix } : {}) });
    const done = await dispatchLine(line.replace(/^\./, '/'), { controller, context });
    await controller.leave();
    return done.kind === 'done' ? done.output.map((o) => o.text) : done;
  }

  it('names the renamed commands in results and errors, never the built-in names', async () => {
    expect(await run('/open')).toEqual(['Usage: /open ID (find IDs with /list).']);
    expect(await run('/open nosuchsession')).toEqual([expect.stringMatching(/^No session `nosuchsession`\. List sessions with: \/list --all\nStill in session-/)]);
    // An error thrown by the command (the library's UserError) is written in the host's words too, with no program's name before it.
    expect(await run('/branch --at')).toEqual(['--at needs the number of messages the fork keeps. For example: /branch --at 4']);
    expect(await run('.branch --at', '.')).toEqual(['--at needs the number of messages the fork keeps. For example: .branch --at 4']);
    expect(await run('.open', '.')).toEqual(['Usage: .open ID (find IDs with .list).']);
  });
});

describe('the readline adapter when its terminal goes away', () => {
  // A host's loop prompts again after a line; once the terminal is gone that write fails (EIO).
  // Unheard, the output's 'error' ends the process before the session is saved.
  it('takes a failed write of its output as a hang-up: the session is saved, closed and let go', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const input = new PassThrough();
    let gone = false;
    const output = new Writable({
      write: (_chunk, _encoding, done) => done(gone ? Object.assign(new Error('write EIO'), { code: 'EIO', errno: -5, syscall: 'write' }) : null),
    });
    const rl = createInterface({ input, output, terminal: false, prompt: 'you> ' });
    const chat = await attachReadline(rl, { home, cwd, output, host: { program: 'node my-repl.mjs' } });
    const id = chat.controller!.session.id;
    let answered!: () => void;
    const first = new Promise<void>((resolve) => (answered = resolve));
    const loop = (async () => {
      for await (const line of rl) {
        if (!(await chat.handle(line))) await chat.record(line, `${line.toUpperCase()}!`);
        answered();
        rl.prompt();
      }
      return chat.leave();
    })();
    input.write('hello\n');
    await first;
    gone = true;
    rl.prompt();
    expect(await loop).toBe(0);
    const sessions = await openSessions({ home, cwd });
    expect((await sessions.read(id)).messages.map((m) => m.content)).toEqual(['hello', 'HELLO!']);
    expect(await sessions.list({ all: true })).toEqual([expect.objectContaining({ id, status: 'closed', messageCount: 2 })]);
    expect(await sessions.holder(id)).toBeUndefined();
  });
});
