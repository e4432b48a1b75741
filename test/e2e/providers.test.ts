import { describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('a real provider behind the REPL', () => {
  it('streams an Anthropic reply; a failed request is one line, keeps the message and the REPL goes on', async () => {
    const server = await startFakeLlmServer('anthropic', [
      { status: 401, message: 'invalid x-api-key' },
      { text: ['Hello', ' from', ' the fake'], usage: { input: 3, output: 4 } },
    ]);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' };
    const result = await runPiped([], 'first\nsecond\n', { home, cwd, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Hello from the fake\n');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('chatkeep: '));
    expect(errors).toHaveLength(1);
    expect(result.stderr).toMatch(/· anthropic claude-sonnet-5-5\b.* · autosave/);
    // The SDK warns on stderr about deprecated models: the default must not be one.
    expect(result.stderr).not.toMatch(/deprecated/i);
    expect(errors[0]).toBe('chatkeep: the API key was rejected (401): check ANTHROPIC_API_KEY');
    // The second request carried both user messages: the first was kept despite the failure.
    const sent = server.requests[1]?.body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(sent)).toContain('first');
    expect(JSON.stringify(sent)).toContain('second');

    const id = /Saved (\S+) /.exec(result.stderr)?.[1];
    const shown = await runPiped(['sessions', 'show', id!, '--json'], '', { home, cwd, env });
    const session = JSON.parse(shown.stdout) as { provider: unknown; messages: { role: string; content: string }[] };
    expect(session.provider).toEqual({ name: 'anthropic', model: 'claude-sonnet-5-5', source: 'env' });
    expect(session.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first'],
      ['user', 'second'],
      ['assistant', 'Hello from the fake'],
    ]);
  });
});
