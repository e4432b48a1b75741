import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('one session, one process', () => {
  it('refuses a second REPL on a held session with exit 3, naming the holder', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run: holder, id } = await startAtPrompt([], { home, cwd });

    const second = await runPiped(['--session-id', id], 'hi\n', { home, cwd });
    expect(second.code).toBe(3);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(`Session ${id} is in use by process ${holder.pid} on `);

    expect(await holder.quit()).toBe(0);
  });

  it('/load refuses a session another REPL holds, naming it, and stays in the current one', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run: holder, id: heldId } = await startAtPrompt([], { home, cwd });
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say(`/load ${heldId}`, `Session ${heldId} is in use by process ${holder.pid} on `);
    await run.waitFor(`Still in ${id}.`);
    await run.say('still here', 'Echo: still here (read 1 message)');
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Resume with: chatkeep --session-id ${id}\n`);
    expect(await holder.quit()).toBe(0);
  });

  it('recovers every message shown on screen after kill -9, at once', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt(['--autosave', 'off'], { home, cwd });
    await run.say('first words', 'Echo: first words (read 1 message)');
    await run.say('second words', 'Echo: second words (read 3 messages)');
    process.kill(run.pid, 'SIGKILL');
    await run.exited;

    const started = Date.now();
    const resumed = await runPiped(['--session-id', id], '/quit\n', { home, cwd });
    expect(resumed.code).toBe(0);
    // The dead holder's lock is taken over at once, not after the ~20 s stale time.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(resumed.stderr).toContain(`Resumed session ${id} (4 messages`);
    expect(resumed.stderr).toContain('Recovered 4 messages from the journal (the last run ended without saving).');
    // The recovered exchanges are shown (on stderr: piped, stdout carries only this run's output).
    expect(resumed.stderr).toContain(
      '› first words\nEcho: first words (read 1 message)\n› second words\nEcho: second words (read 3 messages)\n',
    );
    expect(resumed.stdout).toBe('');
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    const messages = (JSON.parse(shown.stdout) as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((m) => m.content)).toEqual([
      'first words',
      'Echo: first words (read 1 message)',
      'second words',
      'Echo: second words (read 3 messages)',
    ]);
  });
});
