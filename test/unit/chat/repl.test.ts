import { describe, expect, it } from 'vitest';
import { EchoProvider } from '../../../src/providers/echo.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { Provider, StreamEvent } from '../../../src/providers/types.js';
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
        `Saved ${id} (2 messages).`,
        `Resume with: chatkeep --session-id ${id}`,
        '',
      ].join('\n'),
    );
    expect(repl.session.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Echo: hi (read 1 message)'],
    ]);
    expect(repl.session.closed).toBe(true);
    expect(repl.autosaves[0]?.stopped).toBe(true);
  });

  it('treats end of input as /quit, after the queued lines', async () => {
    const repl = await startRepl();
    repl.write('one\ntwo\n');
    repl.end();
    expect(await repl.exited).toBe(0);
    expect(repl.stdout()).toBe('Echo: one (read 1 message)\nEcho: two (read 3 messages)\n');
    expect(repl.session.closed).toBe(true);
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
    repl.session.warn('Lost the lock on this session: read-only until it is held again.');
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
    expect(repl.session.closed).toBe(true);
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
    repl.session.readOnly = true;
    repl.write('after the loss\n/quit\n');
    expect(await repl.exited).toBe(0);
    const fork = repl.sessions.stored.at(-1)!;
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
    repl.session.readOnly = true;
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
    repl.session.readOnly = true;
    repl.session.retakeResult = { retaken: true };
    repl.write('carry on\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.stderr()).toContain(`Session ${id} is held again (nothing was written to it meanwhile): the chat goes on in it.\n`);
    expect(repl.stderr()).toContain(`Saved ${id} (2 messages).`);
    expect(repl.sessions.stored).toHaveLength(1);
  });

  it('switches sessions with /load, closing the old one and restarting autosave', async () => {
    const repl = await startRepl();
    repl.sessions.add({ id: 'session-20261001-090000', messages: [{ role: 'user', content: 'from before', timestamp: new Date() }] });
    repl.write('/load session-20261001\nnext\n/quit\n');
    expect(await repl.exited).toBe(0);
    expect(repl.session.closed).toBe(true);
    expect(repl.autosaves.map((a) => [a.session.id, a.stopped])).toEqual([
      [repl.session.id, true],
      ['session-20261001-090000', true],
    ]);
    expect(repl.stdout()).toContain(`Saved ${repl.session.id} (0 messages). Switched to session-20261001-090000.\nEcho: next`);
    // Piped, stdout carries only this run's output: the switched-to transcript goes to stderr.
    expect(repl.stderr()).toContain('› from before\n');
    expect(repl.stdout()).toContain('Echo: next (read 2 messages)');
    expect(repl.stderr()).toContain('Resumed session session-20261001-090000 (1 message, last active less than a minute ago, project /work/project)');
    expect(repl.stderr()).toContain('Resume with: chatkeep --session-id session-20261001-090000');
  });

  it('shows a resumed session, what was recovered, and its last exchanges', async () => {
    const repl = await startRepl({
      setup: async (sessions) => {
        sessions.add({
          id: 'session-old',
          messages: [
            { role: 'user', content: 'q1', timestamp: sessions.now() },
            { role: 'assistant', content: 'a1', timestamp: sessions.now() },
          ],
        });
        sessions.advance(2 * 3_600_000);
        const s = await sessions.resume('session-old');
        s.resumeReport = { recoveredMessages: 2, wasInterrupted: true, notices: [] };
        return s;
      },
    });
    repl.write('/quit\n');
    await repl.exited;
    expect(repl.stderr()).toContain('Resumed session session-old (2 messages, last active about 2 hours ago, project /work/project)\n');
    expect(repl.stderr()).toContain('Recovered 2 messages from the journal');
    expect(repl.stdout()).toBe('');
    expect(repl.stderr()).toContain('› q1\na1\n');
  });
});
