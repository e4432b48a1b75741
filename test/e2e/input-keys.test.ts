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
