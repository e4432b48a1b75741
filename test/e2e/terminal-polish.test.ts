/**
 * Small things a person notices at the terminal: no stray empty `›` lines after a picker or a
 * paste, Ctrl-L clears the screen, the "in use" refusal says since when in words. Asserted on
 * what the terminal shows (the output played into a terminal emulator).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Lines that are an empty prompt, except the one the cursor sits on at the end. */
function strayPrompts(lines: string[]): string[] {
  return lines.slice(0, -1).filter((line) => line.trim() === '›');
}

describe('no stray empty › lines', () => {
  it('after a choice in the session browser, a cancel there and a paste, each followed by Enter', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runPiped([], 'one\n/quit\n', { home, cwd });
    const other = /Saved (\S+) /.exec(first.stderr)![1]!;
    const { run, id } = await startAtPrompt([], { home, cwd });
    // Holding a message, this session is kept when the picker switches away from it.
    await run.say('two', 'Echo: two');

    // Enter chooses; a second Enter pressed at once (as many people do) must leave no trace.
    run.line('/load');
    await run.waitFor(new RegExp(`› ${other} `));
    run.write('\r\r');
    await run.waitFor(`Switched to ${other}.`);
    await run.prompt();
    let from = run.screen().length;
    run.line('/load');
    await run.waitFor('Load which session?', { from });
    from = run.screen().length;
    run.write('\x1b');
    await run.waitFor(`Cancelled; still in ${other}.`, { from });
    run.write('\r');
    await run.prompt();
    // A paste that ends with a newline is sent at once; the Enter after it is an empty line.
    run.write('\x1b[200~pasted one\rpasted two\r\x1b[201~');
    // The line in progress holds its last word until the word ends: what is seen is the reply whole.
    await run.waitFor('pasted two (read 3 messages)', { from });
    expect((await run.visible()).join('\n')).toContain('Echo: pasted one\npasted two (read 3 messages)');
    await run.prompt();
    run.write('\r');
    run.write('\r');
    run.line('after');
    await run.waitFor('Echo: after (read 5 messages)');
    await run.prompt();
    const lines = await run.visible();
    expect(strayPrompts(lines)).toEqual([]);
    expect(lines).toContain('› after');
    expect(lines[lines.length - 1]).toBe('›');
    expect(id).not.toBe(other);
    expect(await run.quit()).toBe(0);
  });
});

describe('Ctrl-L', () => {
  it('clears the screen and redraws the prompt with what was typed', async () => {
    const { run } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    await run.say('hello', 'Echo: hello (read 1 message)');
    await run.prompt();
    run.write('half typed');
    await run.waitFor('› half typed');
    run.write('\x0c');
    await run.waitFor(/half typed[\s\S]*› half typed$/);
    expect(await run.visible()).toEqual(['› half typed']);
    run.write('\r');
    await run.waitFor('Echo: half typed (read 3 messages)');
    expect(await run.quit()).toBe(0);
  });
});

describe('a session in use', () => {
  it('is refused saying since when in words, not as a raw timestamp', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('hi', 'Echo: hi (read 1 message)');
    // The holder took the lock 12 minutes ago.
    const ownerFile = join(sessionDir(home, id)!, 'lock.owner.json');
    const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as { startedAt: string };
    owner.startedAt = new Date(Date.now() - 12 * 60_000 - 5_000).toISOString();
    writeFileSync(ownerFile, JSON.stringify(owner));
    const refused = await runPiped(['--session-id', id], '', { home, cwd });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      new RegExp(`^chatkeep: Session ${id} is in use by process ${run.pid} on \\S+ \\(since 12 minutes ago\\): quit it there first\\. Or continue in a copy of it: .*chatkeep.* --fork ${id}\\n$`),
    );
    expect(await run.quit()).toBe(0);
  });
});
