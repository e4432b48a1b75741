/**
 * Smaller things a new user met: token totals that disagree between /status and the exit line
 * after a /reset, and a /model suggestion naming the wrong assistant.
 */
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('what a new user met', () => {
  it('/status and the exit line give the same token totals after a /reset', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = await runPiped([], 'hello there\n/reset\nagain\n/status\n/quit\n', { home, cwd });
    expect(run.code).toBe(0);
    const status = /Tokens\s+(\d+) tokens so far \((\d+) in, (\d+) out\)/.exec(run.stdout);
    const exit = /Tokens: (\d+) \((\d+) in, (\d+) out\)/.exec(run.stderr);
    expect(status?.slice(1)).toEqual(exit?.slice(1));
    // Both count the conversation /reset cleared: more than the second exchange alone.
    expect(Number(exit?.[1])).toBeGreaterThan(7);
  });

  it('/model with a Claude model on echo suggests the Anthropic assistant', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = await runPiped([], '/model claude-sonnet-4\n/model gpt-4o\n/quit\n', { home, cwd });
    expect(run.stdout + run.stderr).toContain('echo (offline) has no models: switch assistant first, e.g. /provider anthropic claude-sonnet-4.');
    expect(run.stdout + run.stderr).toContain('e.g. /provider openai gpt-4o.');
  });
});
