import { describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

// gpt-4o-mini is in the price table at $0.15 (input) and $0.60 (output) per million tokens:
// one reply of 100,000 + 20,000 tokens costs $0.015 + $0.012 = $0.027.
const REPLY = { text: ['Noted.'], usage: { input: 100_000, output: 20_000 } };

describe('tokens and estimated cost', () => {
  it('a priced model: the exit line, sessions list, sessions show and /sessions give tokens and cost', async () => {
    const server = await startFakeLlmServer('openai', REPLY);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };
    const args = ['--provider', 'openai', '--model', 'gpt-4o-mini'];

    const chat = await runPiped(args, 'one\ntwo\n', { home, cwd, env });
    expect(chat.code).toBe(0);
    const id = /Saved (\S+) \(/.exec(chat.stderr)![1]!;
    expect(chat.stderr).toContain(`Tokens: 240,000 (200,000 in, 40,000 out) · estimated cost $0.05\nSaved ${id} (4 messages).\n`);

    const list = await runPiped(['sessions', 'list'], '', { home, cwd, env });
    expect(list.stdout).toMatch(new RegExp(`^  ${id}\\s+less than a minute ago\\s+4 messages · 240\\.0k tokens · ~\\$0\\.05\\s+closed`));
    const listed = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd, env })).stdout) as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({ id, usage: { inputTokens: 200_000, outputTokens: 40_000 }, costUsd: 0.054 });

    const show = await runPiped(['sessions', 'show', id], '', { home, cwd, env });
    expect(show.stdout).toContain(' · 4 messages · 240.0k tokens · ~$0.05 · last active');
    const shown = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd, env })).stdout) as {
      costUsd: number;
      messages: { role: string; model?: string }[];
    };
    expect(shown.costUsd).toBe(0.054);
    expect(shown.messages.map((m) => m.model)).toEqual([undefined, 'gpt-4o-mini', undefined, 'gpt-4o-mini']);

    // In the chat, the current session's row counts the reply just streamed (from its journal).
    const { run, id: live } = await startAtPrompt(args, { home, cwd, env });
    await run.say('three', 'Noted.');
    await run.say('/sessions', new RegExp(`\\* ${live}\\s+less than a minute ago\\s+2 messages · 120\\.0k tokens · ~\\$0\\.03\\s+open`));
    expect(await run.quit()).toBe(0);
    expect(run.screen()).toContain(`Tokens: 120,000 (100,000 in, 20,000 out) · estimated cost $0.03\nSaved ${live} (2 messages).`);
  });

  it('a model without a price shows tokens only, and so does a session that used one', async () => {
    const server = await startFakeLlmServer('openai', REPLY);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };

    const unknown = await runPiped(['--provider', 'openai', '--model', 'llama3.1'], 'one\n', { home, cwd, env });
    expect(unknown.stderr).toContain('Tokens: 120,000 (100,000 in, 20,000 out)\nSaved ');
    expect(unknown.stderr).not.toContain('estimated cost');

    // Priced first, then resumed with a model the table does not know: the total is no longer known.
    const priced = await runPiped(['--provider', 'openai', '--model', 'gpt-4o-mini'], 'one\n', { home, cwd, env });
    const id = /Saved (\S+) \(/.exec(priced.stderr)![1]!;
    expect(priced.stderr).toContain('estimated cost $0.03');
    const mixed = await runPiped(['--session-id', id, '--model', 'llama3.1'], 'two\n', { home, cwd, env });
    expect(mixed.stderr).toContain('Tokens: 240,000 (200,000 in, 40,000 out)\nSaved ');
    const listed = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd, env })).stdout) as Record<string, unknown>[];
    expect(listed.map((row) => 'costUsd' in row)).toEqual([false, false]);
    expect((await runPiped(['sessions', 'list'], '', { home, cwd, env })).stdout).not.toContain('$');
  });
});

describe('the model in the price and context-window tables', () => {
  it('the default Anthropic model has a cost estimate at exit', async () => {
    const server = await startFakeLlmServer('anthropic', REPLY);
    const env = { ANTHROPIC_API_KEY: 'sk-test-not-real', ANTHROPIC_BASE_URL: server.origin, CHATKEEP_MAX_RETRIES: '0' };
    const chat = await runPiped([], 'one\n', { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env });
    expect(chat.code).toBe(0);
    expect(server.requests[0]!.body.model).toBe('claude-sonnet-5-5');
    // $2 and $10 per million: 100,000 in and 20,000 out cost $0.20 + $0.20.
    expect(chat.stderr).toContain('Tokens: 120,000 (100,000 in, 20,000 out) · estimated cost $0.40\n');
    expect(chat.stderr).not.toContain('unknown to chatkeep');
  });

  it('a model in neither table is said once, at the start', async () => {
    const server = await startFakeLlmServer('openai', REPLY);
    const env = { OPENAI_API_KEY: 'sk-test-not-real', OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };
    const chat = await runPiped(['--provider', 'openai', '--model', 'gpt-9-preview'], 'one\ntwo\n', { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env });
    expect(chat.code).toBe(0);
    const note = 'The price and context window of model gpt-9-preview are unknown to chatkeep: no cost estimate and no /compact offer before the window fills for it.\n';
    expect(chat.stderr.split(note)).toHaveLength(2);
    expect(chat.stderr).toContain('Tokens: 240,000 (200,000 in, 40,000 out)\n');
  });
});
