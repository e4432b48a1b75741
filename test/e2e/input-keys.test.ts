/**
 * The keys a Claude Code or Codex user reaches for at chatkeep's prompt: Esc stops a reply,
 * Alt-Enter, Shift-Enter and `\` then Enter start a new line of the same message, a long paste
 * shows as one marker until sent. Driven in a pseudo-terminal as a person types; what is stored
 * is read back with `sessions show --json`.
 */
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

interface Shown {
  messages: { role: string; content: string; interrupted?: boolean }[];
}

async function show(id: string, home: string, cwd: string): Promise<Shown> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout) as Shown;
}

describe('Esc', () => {
  it('stops a streaming reply as Ctrl-C does: the same marker, the partial reply stored interrupted', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '200' } });
    await run.say('alpha beta gamma delta epsilon zeta eta theta iota kappa', 'Echo: alpha ');
    run.write('\x1b');
    await run.waitFor('[interrupted]');
    await run.prompt();
    const [user, reply] = (await show(id, home, cwd)).messages;
    expect(user).toMatchObject({ role: 'user', content: 'alpha beta gamma delta epsilon zeta eta theta iota kappa' });
    expect(reply?.interrupted).toBe(true);
    expect(reply?.content.startsWith('Echo: alpha ')).toBe(true);
    expect(reply?.content).not.toContain('(read 1 message)');
    expect(run.screen()).toContain(`${reply?.content.trimEnd()} [interrupted]`);
    // The Esc was not replayed into the next line: a message typed now is sent as typed.
    await run.say('next', 'Echo: next (read 3 messages)');
    expect(await run.quit()).toBe(0);
  });
});

describe('a new line in the message', () => {
  it.each([
    ['Alt-Enter', '\x1b\r'],
    ['Shift-Enter as CSI u', '\x1b[13;2u'],
    ['Shift-Enter as modifyOtherKeys', '\x1b[27;2;13~'],
    ['\\ then Enter', '\\\r'],
  ])('%s starts a new line; Enter sends the lines as one message, and ↑ brings it back whole', async (_name, newline) => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write('first line');
    run.write(newline);
    run.write('second line');
    run.write(newline);
    run.write('third');
    await run.waitFor('third');
    // Nothing was sent yet: the prompt shows the three lines, the cursor after the last.
    const lines = await run.visible();
    expect(lines.slice(-3)).toEqual(['› first line', 'second line', 'third']);
    run.write('\r');
    await run.waitFor('(read 1 message)');
    await run.prompt();
    expect((await run.visible()).slice(-5)).toEqual(['third', 'Echo: first line', 'second line', 'third (read 1 message)', '›']);
    // ↑ recalls the message whole; editing its end and sending it again sends all of it.
    run.write('\x1b[A');
    await run.waitFor(/› first line\nsecond line\nthird$/);
    expect((await run.visible()).slice(-3)).toEqual(['› first line', 'second line', 'third']);
    run.write('!\r');
    await run.waitFor('(read 3 messages)');
    expect(await run.quit()).toBe(0);
    expect((await show(id, home, cwd)).messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'first line\nsecond line\nthird',
      'first line\nsecond line\nthird!',
    ]);
  });

  it('Backspace at the start of a line joins it to the line above', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write('one\x1b\rtwo');
    await run.waitFor('two');
    run.write('\x1b[D\x1b[D\x1b[D\x7f');
    run.write(' ');
    await run.waitFor(/› one two$/);
    expect((await run.visible()).slice(-1)).toEqual(['› one two']);
    run.write('\r');
    await run.waitFor('Echo: one two (read 1 message)');
    expect(await run.quit()).toBe(0);
    expect((await show(id, home, cwd)).messages[0]?.content).toBe('one two');
  });
});

describe('a paste', () => {
  const pasted = Array.from({ length: 12 }, (_, i) => `pasted line ${i + 1}`);

  it('of many lines shows as one marker until sent, and the whole paste is what is stored and sent', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write('explain this: ');
    run.write(`\x1b[200~${pasted.join('\r')}\r\x1b[201~`);
    await run.waitFor('[pasted 12 lines]');
    // Never sent by itself, even though it ended with a line break: the user goes on typing.
    run.write(' thanks');
    await run.waitFor('› explain this: [pasted 12 lines] thanks');
    expect(run.screen()).not.toContain('pasted line 1');
    expect(run.screen()).not.toContain('Echo:');
    run.write('\r');
    await run.waitFor('(read 1 message)');
    await run.prompt();
    expect((await run.visible()).slice(-14)).toEqual([
      '› explain this: [pasted 12 lines] thanks',
      'Echo: explain this: pasted line 1',
      ...pasted.slice(1, -1),
      'pasted line 12 thanks (read 1 message)',
      '›',
    ]);
    expect(await run.quit()).toBe(0);
    expect((await show(id, home, cwd)).messages[0]?.content).toBe(`explain this: ${pasted.join('\n')} thanks`);
  });

  it('of a few lines is shown as it is; Backspace deletes a marker whole', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write(`\x1b[200~${pasted.join('\n')}\x1b[201~`);
    await run.waitFor('› [pasted 12 lines]');
    run.write('\x7f');
    run.write('\x1b[200~short one\r\nshort two\x1b[201~');
    await run.waitFor('short two');
    expect((await run.visible()).slice(-2)).toEqual(['› short one', 'short two']);
    run.write('\r');
    await run.waitFor('(read 1 message)');
    expect(await run.quit()).toBe(0);
    expect((await show(id, home, cwd)).messages[0]?.content).toBe('short one\nshort two');
  });

  it('left unsent is kept whole as the draft', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    run.write(`see \x1b[200~${pasted.join('\r')}\x1b[201~`);
    await run.waitFor('› see [pasted 12 lines]');
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    expect((JSON.parse(shown.stdout) as { draft?: string }).draft).toBe(`see ${pasted.join('\n')}`);
  });
});
