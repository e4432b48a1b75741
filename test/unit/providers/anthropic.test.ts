import { describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/index.js';
import { UserError } from '../../../src/session/api/errors.js';
import { startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { describeStreamContract } from './stream-contract.js';
import { consume, conversation, pieces, sdkProviderFor } from './stream-helpers.js';

const KEY = 'sk-ant-test-0123456789abcdef';

const { providerFor, serve } = sdkProviderFor('anthropic', 'claude-test-1', KEY);

describe('anthropic provider', () => {
  describeStreamContract('anthropic', {
    model: 'claude-test-1',
    key: KEY,
    keyRejected: `invalid x-api-key ${KEY}`,
    modelNotFound: 'model: claude-test-1',
    endOfStream: 'message_stop',
    basePath: '',
  });

  it('sends the whole conversation, the system prompt as top-level system, the model and the key', async () => {
    const { server, provider } = await serve({ text: ['ok'] });
    await consume(provider.stream(conversation, { system: 'You are terse.' }));
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.body).toMatchObject({
      model: 'claude-test-1',
      stream: true,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Nice to meet you, Ada.' },
        { role: 'assistant', content: '[tool call call_1: clock({"tz":"UTC"})]' },
        { role: 'user', content: '[tool result call_1]\n10:00' },
        { role: 'user', content: 'What is my name?' },
      ],
    });
    expect(request?.body.max_tokens).toBeGreaterThan(0);
    expect(JSON.stringify(request?.headers)).toContain(KEY);
  });

  it('sends no system field without a system prompt, and a per-call model when given', async () => {
    const { server, provider } = await serve({ text: ['ok'] });
    await consume(provider.stream(conversation.slice(0, 1), { model: 'claude-other' }));
    expect(server.requests[0]?.body).not.toHaveProperty('system');
    expect(server.requests[0]?.body.model).toBe('claude-other');
  });

  it('recovers through the SDK retry when the first answer is a 503', async () => {
    const server = await startFakeLlmServer('anthropic', [
      { status: 503, headers: { 'retry-after-ms': '1' } },
      { text: ['fine'] },
    ]);
    const provider = await providerFor(server.baseURL, 1);
    const seen = await consume(provider.stream(conversation));
    expect(seen.error).toBeUndefined();
    expect(seen.text).toBe('fine');
  });

  it('an error event mid-stream (overloaded): the partial text arrives, then the cut-off error', async () => {
    const { provider } = await serve({ text: pieces, errorEventAfter: 2 });
    const seen = await consume(provider.stream(conversation));
    expect(seen.text).toBe('Your name is');
    expect((seen.error as Error).message).toBe('the reply was cut off mid-stream: the partial reply is kept');
  });

  it('a server that never answers: times out with a one-line message', async () => {
    const server = await startFakeLlmServer('anthropic', { silent: true });
    const provider = await createProvider(
      { name: 'anthropic', model: 'claude-test-1', source: 'flag' },
      { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL },
      { maxRetries: 0, timeoutMs: 50 },
    );
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe(`no answer from ${server.origin} in time: try again, or check ANTHROPIC_BASE_URL`);
  });

  it('refuses to start without ANTHROPIC_API_KEY', async () => {
    const creating = createProvider({ name: 'anthropic', model: null, source: 'flag' }, {});
    await expect(creating).rejects.toThrow(UserError);
    await expect(creating).rejects.toMatchObject({ message: 'ANTHROPIC_API_KEY is not set: export it.', advice: { to: 'Or chat offline:', run: ['--provider', 'echo'] } });
  });
});
