import { describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('chatting through an OpenAI-compatible server', () => {
  it('streams replies, quits, resumes with the same model, and sends the earlier turns again', async () => {
    const server = await startFakeLlmServer('openai', [
      { text: ['The capital', ' of France', ' is Paris.'], usage: { input: 12, output: 7 } },
      { text: ['You asked', ' about France.'], usage: { input: 30, output: 5 } },
    ]);
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    // A local server needs no key: OPENAI_BASE_URL alone selects nothing, so name the provider.
    const env = { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' };

    const { run: first, id } = await startAtPrompt(['--provider', 'openai', '--model', 'llama3.1'], { home, cwd, env });
    expect(first.screen()).toMatch(/· openai llama3\.1 \(127\.0\.0\.1:\d+\) · autosave/);
    await first.say('What is the capital of France?', 'The capital of France is Paris.');
    expect(await first.quit()).toBe(0);
    expect(first.screen()).toContain(`Resume with: chatkeep --session-id ${id}\n`);

    // Resumed without flags: the session keeps its provider and model.
    const second = spawnPty(['--session-id', id], { home, cwd, env });
    await second.prompt();
    expect(second.screen()).toContain(`Resumed session ${id} (2 messages`);
    expect(second.screen()).toMatch(/· openai llama3\.1 /);
    await second.say('And what did I ask before?', 'You asked about France.');
    expect(await second.quit()).toBe(0);

    // The model saw the whole conversation on the resumed turn, in order.
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body.model).toBe('llama3.1');
    const sent = (server.requests[1].body.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);
    expect(sent).toEqual([
      ['user', 'What is the capital of France?'],
      ['assistant', 'The capital of France is Paris.'],
      ['user', 'And what did I ask before?'],
    ]);

    // Usage reported by the server is stored with each reply.
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd, env });
    const session = JSON.parse(shown.stdout) as { messages: { role: string; usage?: unknown }[] };
    expect(session.messages.filter((m) => m.role === 'assistant').map((m) => m.usage)).toEqual([
      { inputTokens: 12, outputTokens: 7 },
      { inputTokens: 30, outputTokens: 5 },
    ]);
    expect((JSON.parse(shown.stdout) as { usage: unknown }).usage).toEqual({ inputTokens: 42, outputTokens: 12 });
    const text = await runPiped(['sessions', 'show', id], '', { home, cwd, env });
    expect(text.stdout).toContain(' · 4 messages · 54 tokens · ');
  });
});
