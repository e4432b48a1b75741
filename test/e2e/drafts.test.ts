import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt, type PtyRun } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

interface Shown {
  draft?: string;
  messages: { role: string; content: string }[];
}

async function show(id: string, home: string, cwd: string): Promise<Shown> {
  return JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd })).stdout) as Shown;
}

/** Types `text` at the prompt without sending it, and waits until it is on screen. */
async function typeDraft(run: PtyRun, text: string): Promise<void> {
  await run.prompt();
  run.write(text);
  await run.waitFor(`› ${text}`);
}

describe('an unsent draft', () => {
  it('is stored when Ctrl-C is pressed twice with text on the line, put back on resume, and sent only with Enter', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('first', 'Echo: first (read 1 message)');
    await typeDraft(run, 'half typed thought');
    run.write('\x03');
    await run.waitFor('(To leave, press Ctrl-C again, Ctrl-D, or type /quit.)');
    await run.prompt();
    run.write('\x03');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (2 messages).\nResume with: chatkeep --session-id ${id}\n`);
    expect((await show(id, home, cwd)).draft).toBe('half typed thought');

    const again = spawnPty(['--session-id', id], { home, cwd });
    await again.waitFor('Your unsent draft is back at the prompt: Enter sends it, Ctrl-C clears it.\n› half typed thought');
    // Put back, never sent by itself: the session still holds two messages.
    expect((await show(id, home, cwd)).messages).toHaveLength(2);
    again.write('\r');
    await again.waitFor('Echo: half typed thought (read 3 messages)');
    expect(await again.quit()).toBe(0);
    const after = await show(id, home, cwd);
    expect(after.draft).toBeUndefined();
    expect(after.messages.map((m) => m.content)).toEqual([
      'first',
      'Echo: first (read 1 message)',
      'half typed thought',
      'Echo: half typed thought (read 3 messages)',
    ]);
  });

  it('is stored on SIGTERM and on a hang-up, and kept (not sent) by a piped resume', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    for (const signal of ['SIGTERM', 'SIGHUP']) {
      const { run, id } = await startAtPrompt([], { home, cwd });
      await typeDraft(run, `left by ${signal}`);
      run.kill(signal);
      expect(await run.exited).toBe(0);
      expect((await show(id, home, cwd)).draft).toBe(`left by ${signal}`);

      const piped = await runPiped(['--session-id', id], '/quit\n', { home, cwd });
      expect(piped.code).toBe(0);
      expect(piped.stdout).toBe('');
      const kept = await show(id, home, cwd);
      expect(kept.draft).toBe(`left by ${signal}`);
      expect(kept.messages).toEqual([]);
    }
  });

  it('keeps what was typed while a reply streamed when a signal ends the session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '300' } });
    await run.say('one two three four five six', 'Echo: one');
    run.write('typed ahz\x7fead');
    // Two more words streamed: the keys, written before them, have been read (and held).
    await run.waitFor('Echo: one two three');
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect((await show(id, home, cwd)).draft).toBe('typed ahead');
  });

  it('keeps a multi-line paste that was never sent, and sends it whole when put back', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write('\x1b[200~line one\rline two\x1b[201~');
    await run.waitFor('line two');
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect((await show(id, home, cwd)).draft).toBe('line one\nline two');

    const again = spawnPty(['--session-id', id], { home, cwd });
    await again.waitFor(/Your unsent draft \(2 lines\) is back at the prompt: Enter sends it, Ctrl-C clears it\.\n[\s\S]*line two$/);
    expect((await again.visible()).slice(-3)).toEqual(['Your unsent draft (2 lines) is back at the prompt: Enter sends it, Ctrl-C clears it.', '› line one', 'line two']);
    again.write('\r');
    // The line in progress holds its last word until the word ends: what is seen is the reply whole.
    await again.waitFor('line two (read 1 message)');
    expect((await again.visible()).join('\n')).toContain('Echo: line one\nline two (read 1 message)');
    expect(await again.quit()).toBe(0);
  });

  it('is what Ctrl-C cleared when Ctrl-D leaves right after, and nothing once the line is deleted', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await typeDraft(run, 'cleared then left');
    run.write('\x03');
    await run.waitFor('(To leave, press Ctrl-C again');
    await run.prompt();
    run.write('\x04');
    expect(await run.exited).toBe(0);
    expect((await show(id, home, cwd)).draft).toBe('cleared then left');

    // Deleting the draft put back, then leaving, leaves no draft.
    const again = spawnPty(['--session-id', id], { home, cwd });
    await again.waitFor('› cleared then left');
    again.write('\x15'); // Ctrl-U: delete the line
    again.write('x\x7f'); // typing, then backspace: the cleared draft is replaced by an empty line
    await again.prompt();
    again.write('\x04');
    expect(await again.exited).toBe(0);
    expect((await show(id, home, cwd)).draft).toBeUndefined();
  });
});
