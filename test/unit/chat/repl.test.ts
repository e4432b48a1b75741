import { describe, expect, it } from 'vitest';
import { EchoProvider } from '../../../src/providers/echo.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { Provider, StreamEvent } from '../../../src/models/types.js';
import type { SessionImpl } from '../../../src/session/runtime/session.js';
import { startRepl } from '../../helpers/repl-harness.js';

describe('the REPL loop (piped)', () => {
  it('chats, quits, and prints the way back on stderr', async () => {
    const repl = await startRepl();
    repl.write('hi\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.stdout()).toBe('Echo: hi (read 1 message)\n');
    const id = repl.session.id;
    expect(repl.stderr()).toBe(
      [
        `chatkeep 0.1.0 · session ${id} · echo (offline) · autosave every 5 min`,
        'Type a message, or /help for commands.',
        'Tokens: 6 (1 in, 5 out)',
        `Saved ${id} (2 messages).`,
        `Resume with: chatkeep --session-id ${id}`,
        '',
      ].join('\n'),
    );
    expect(repl.session.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Echo: hi (read 1 message)'],
    ]);
    expect(await repl.memory.closed(id)).toBe(true);
    expect(repl.autosaves[0]?.stopped).toBe(true);
  });

  it('treats end of input as /quit, after the queued lines', async () => {
    const repl = await startRepl();
    repl.write('one\ntwo\n');
    repl.end();
    expect(await repl.exited).toBe(0);
    expect(repl.stdout()).toBe('Echo: one (read 1 message)\nEcho: two (read 3 messages)\n');
    expect(await repl.memory.closed(repl.session.id)).toBe(true);
  });

  it('answers an unknown command with a suggestion and carries on', async () => {
    const repl = await startRepl();
    repl.write('/sesions\n/quit\n');
    await repl.exited;
    expect(repl.stderr()).toContain('Unknown command /sesions. Type /help. Did you mean /sessions?\n');
  });

  it('prints a provider failure in one line, keeps the user message and carries on', async () => {
    let calls = 0;
    const flaky: Provider = {
      name: 'flaky',
      model: null,
      label: 'flaky',
      async *stream(messages): AsyncIterable<StreamEvent> {
        if (calls++ === 0) throw new ProviderError('The server is unreachable: check your network.', 'unreachable');
        yield* new EchoProvider(0).stream(messages);
      },
    };
    const repl = await startRepl({ provider: flaky });
    repl.write('first\nsecond\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.stderr()).toContain('\nchatkeep: The server is unreachable: check your network.\n');
    expect(repl.stdout()).toBe('Echo: second (read 2 messages)\n');
    expect(repl.session.messages.map((m) => m.content)).toEqual(['first', 'second', 'Echo: second (read 2 messages)']);
  });

  it('keeps a reply cut by a failure mid-stream, marked interrupted', async () => {
    const cut: Provider = {
      name: 'cut',
      model: null,
      label: 'cut',
      async *stream(): AsyncIterable<StreamEvent> {
        yield { type: 'text', text: 'Half ' };
        throw new ProviderError('The stream was cut off.', 'cut-off');
      },
    };
    const repl = await startRepl({ provider: cut });
    repl.write('go\n/quit\n');
    await repl.exited;
    expect(repl.stdout()).toBe('Half [interrupted]\n');
    expect(repl.session.messages[1]).toMatchObject({ role: 'assistant', content: 'Half ', interrupted: true });
  });

  it('shows library warnings before the next prompt', async () => {
    const repl = await startRepl();
    repl.write('one\n');
    await repl.waitForStdout('Echo: one');
    // As the autosave timer reports a failure outside any caller's await.
    (repl.session as SessionImpl).warn('Lost the lock on this session: read-only until it is held again.');
    expect(repl.stderr()).not.toContain('Lost the lock');
    repl.write('two\n');
    await repl.waitForStdout('Echo: two');
    expect(repl.stderr()).toContain('Lost the lock on this session: read-only until it is held again.\n');
    repl.write('/quit\n');
    await repl.exited;
  });

  it('saves and exits 0 on SIGTERM while idle', async () => {
    const repl = await startRepl();
    repl.write('hello\n');
    await repl.waitForStdout('Echo: hello');
    repl.signals.emit('SIGTERM');
    expect(await repl.exited).toBe(0);
    expect(await repl.memory.closed(repl.session.id)).toBe(true);
    expect(repl.stderr()).toContain(`Saved ${repl.session.id} (2 messages).`);
  });

  it('stops a slow reply on SIGHUP, keeping the partial text marked interrupted', async () => {
    const repl = await startRepl({ provider: new EchoProvider(50) });
    repl.write('one two three four five six seven eight\n');
    await repl.waitForStdout('Echo: one ');
    repl.signals.emit('SIGHUP');
    expect(await repl.exited).toBe(0);
    const reply = repl.session.messages[1];
    expect(reply?.interrupted).toBe(true);
    expect(reply?.content.startsWith('Echo: one ')).toBe(true);
    expect(reply?.content.length).toBeLessThan('Echo: one two three four five six seven eight (read 1 message)'.length);
    expect(repl.stdout()).toBe(`${reply?.content.trimEnd()} [interrupted]\n`);
  });

  it('after a lost lock, the next line goes on in a fork, and Saved names only the fork', async () => {
    const repl = await startRepl();
    const id = repl.session.id;
    repl.write('hi\n');
    await repl.waitForStdout('Echo: hi (read 1 message)');
    repl.memory.takeOver(id, { pid: 999, host: 'other-host' });
    // A second later: the fork's ID is not this one's with a -2.
    repl.memory.advance(1000);
    repl.write('after the loss\n/quit\n');
    expect(await repl.exited).toBe(0);
    const fork = await repl.memory.sessions.read(repl.autosaves.at(-1)!.session.id);
    expect(fork.id).not.toBe(id);
    expect(fork.messages.map((m) => m.content)).toEqual(['hi', 'Echo: hi (read 1 message)', 'after the loss', 'Echo: after the loss (read 3 messages)']);
    expect(repl.stderr()).toContain(
      `Session ${id} is held by process 999 on other-host now; this conversation goes on in new session ${fork.id}, a fork of ${id} at message 2.\n`,
    );
    expect(repl.stderr()).toContain(`Saved ${fork.id} (4 messages).\nResume with: chatkeep --session-id ${fork.id}\n`);
    expect(repl.stderr()).not.toContain(`Saved ${id}`);
    expect(repl.autosaves.map((a) => [a.session.id, a.stopped])).toEqual([[id, true], [fork.id, true]]);
  });

  it('leaving a session whose lock was lost says who holds it, without Saved', async () => {
    const repl = await startRepl();
    const id = repl.session.id;
    repl.write('hi\n');
    await repl.waitForStdout('Echo: hi (read 1 message)');
    repl.memory.takeOver(id, { pid: 999, host: 'other-host' });
    repl.write('/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.stderr()).toContain(
      [
        `Session ${id} is held by process 999 on other-host now; it has all 2 messages shown here.`,
        `Resume it once that process has quit: chatkeep --session-id ${id}`,
        '',
      ].join('\n'),
    );
    expect(repl.stderr()).not.toContain('Saved');
  });

  it('takes a lost session back when its other holder is gone, and carries on in it', async () => {
    const repl = await startRepl();
    const id = repl.session.id;
    // Taken over, then let go by a process that wrote nothing.
    repl.memory.takeOver(id, { pid: 999, host: 'other-host' }).release();
    repl.write('carry on\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.stderr()).toContain(`Session ${id} is held again (nothing was written to it meanwhile): the chat goes on in it.\n`);
    expect(repl.stderr()).toContain(`Saved ${id} (2 messages).`);
    expect(repl.memory.backing.sessions.size).toBe(1);
  });

  it('switches sessions with /load, closing the old one and restarting autosave', async () => {
    const repl = await startRepl();
    await repl.memory.stored({ id: 'session-20261001-090000', messages: [{ role: 'user', content: 'from before', timestamp: new Date() }] });
    // A message first: a session that holds none is not kept, so there would be nothing to save.
    repl.write('hi\n/load session-20261001\nnext\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(await repl.memory.closed(repl.session.id)).toBe(true);
    expect(repl.autosaves.map((a) => [a.session.id, a.stopped])).toEqual([
      [repl.session.id, true],
      ['session-20261001-090000', true],
    ]);
    expect(repl.stdout()).toContain(`Saved ${repl.session.id} (2 messages). Switched to session-20261001-090000.\nEcho: next`);
    // Piped, stdout carries only this run's output: the switched-to transcript goes to stderr.
    expect(repl.stderr()).toContain('› from before\n');
    expect(repl.stdout()).toContain('Echo: next (read 2 messages)');
    expect(repl.stderr()).toContain('Resumed session session-20261001-090000 (1 message, last active less than a minute ago, project /work/project)');
    expect(repl.stderr()).toContain('Resume with: chatkeep --session-id session-20261001-090000');
  });

  it('shows a resumed session, what was recovered, and its last exchanges', async () => {
    const repl = await startRepl({
      setup: async (memory) => {
        // An earlier run journaled two messages and was killed before any snapshot.
        const earlier = await memory.sessions.create();
        await earlier.append({ role: 'user', content: 'q1' });
        await earlier.append({ role: 'assistant', content: 'a1' });
        memory.crash(earlier.id);
        memory.advance(2 * 3_600_000);
        return memory.sessions.resume(earlier.id);
      },
    });
    repl.write('/quit\n');
    await repl.exited;
    expect(repl.stderr()).toContain(`Resumed session ${repl.session.id} (2 messages, last active about 2 hours ago, project /work/project)\n`);
    expect(repl.stderr()).toContain('Recovered 2 messages from the journal');
    expect(repl.stdout()).toBe('');
    expect(repl.stderr()).toContain('› q1\na1\n');
  });
});
