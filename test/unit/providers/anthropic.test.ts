import { describe, expect, it } from 'vitest';
import { ProviderError, createProvider } from '../../../src/providers/index.js';
import type { Provider } from '../../../src/providers/types.js';
import { UserError } from '../../../src/session/errors.js';
import { refusedURL, startFakeLlmServer, type FakeReply } from '../../helpers/fake-llm-server.js';
import { consume, conversation, pieces } from './stream-helpers.js';

const KEY = 'sk-ant-test-0123456789abcdef';

async function providerFor(baseURL: string, maxRetries = 0): Promise<Provider> {
  return createProvider(
    { name: 'anthropic', model: 'claude-test-1', source: 'flag' },
    { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: baseURL },
    { maxRetries },
  );
}

async function serve(replies: FakeReply | FakeReply[]) {
  const server = await startFakeLlmServer('anthropic', replies);
  return { server, provider: await providerFor(server.baseURL) };
}

describe('anthropic provider', () => {
  it('streams the reply in pieces that concatenate exactly, then reports usage', async () => {
    const { server, provider } = await serve({ text: pieces, usage: { input: 42, output: 17 } });
    expect(provider).toMatchObject({ name: 'anthropic', model: 'claude-test-1', label: `anthropic claude-test-1 (${new URL(server.origin).host})` });
    const seen = await consume(provider.stream(conversation));
    expect(seen.error).toBeUndefined();
    expect(seen.pieces).toEqual(pieces);
    expect(seen.text).toBe('Your name is Ada.\n\nGrüße 🙂 — bye');
    expect(seen.usage).toEqual({ type: 'usage', usage: { inputTokens: 42, outputTokens: 17 } });
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

  it('401: says the key was rejected and which variable to check, never showing the key', async () => {
    const { provider } = await serve({ status: 401, message: `invalid x-api-key ${KEY}` });
    const { error } = await consume(provider.stream(conversation));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('the API key was rejected (401): check ANTHROPIC_API_KEY');
    expect((error as ProviderError).exitCode).toBe(1);
  });

  it('429: says when to try again, from retry-after', async () => {
    const { provider } = await serve({ status: 429, headers: { 'retry-after': '20' } });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('rate limited (429): try again in 20 s');
  });

  it('500: a server error to try again, after the SDK used up its retries', async () => {
    const server = await startFakeLlmServer('anthropic', { status: 500, headers: { 'retry-after-ms': '1' } });
    const provider = await providerFor(server.baseURL, 1);
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('server error (500) from anthropic: try again');
    expect(server.requests).toHaveLength(2);
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

  it('404 about the model: names the model and the --model flag', async () => {
    const { provider } = await serve({ status: 404, message: 'model: claude-test-1' });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('unknown model "claude-test-1" (404): pick one with --model');
  });

  it('a stream dropped midway: the partial text arrives, then the cut-off error', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 3 });
    const seen = await consume(provider.stream(conversation), (piece) => {
      if (piece === ' Ada') server.drop(0);
    });
    expect(seen.text).toBe('Your name is Ada');
    expect(seen.usage).toBeUndefined();
    expect(seen.error).toBeInstanceOf(ProviderError);
    expect((seen.error as Error).message).toBe('the reply was cut off mid-stream: the partial reply is kept');
  });

  it('a stream that ends early without message_stop is cut off too', async () => {
    const { provider } = await serve({ text: pieces, cutAfter: 2 });
    const seen = await consume(provider.stream(conversation));
    expect(seen.text).toBe('Your name is');
    expect((seen.error as Error).message).toBe('the reply was cut off mid-stream: the partial reply is kept');
  });

  it('an error event mid-stream (overloaded): the partial text arrives, then the cut-off error', async () => {
    const { provider } = await serve({ text: pieces, errorEventAfter: 2 });
    const seen = await consume(provider.stream(conversation));
    expect(seen.text).toBe('Your name is');
    expect((seen.error as Error).message).toBe('the reply was cut off mid-stream: the partial reply is kept');
  });

  it('abort: the stream ends quietly after the text so far, and the connection is closed', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 1 });
    const controller = new AbortController();
    const seen = await consume(provider.stream(conversation, { signal: controller.signal }), () => controller.abort());
    expect(seen.error).toBeUndefined();
    expect(seen.pieces).toEqual(['Your ']);
    await server.clientGone(0);
    expect(server.requests[0]?.clientGone).toBe(true);
  });

  it('abort before any text: ends quietly with nothing', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 0 });
    const controller = new AbortController();
    const streaming = consume(provider.stream(conversation, { signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await streaming).toMatchObject({ pieces: [], error: undefined });
  });

  it('connection refused: names the URL and ANTHROPIC_BASE_URL', async () => {
    const url = await refusedURL();
    const { error } = await consume((await providerFor(url)).stream(conversation));
    expect((error as Error).message).toBe(`cannot reach ${url}: check ANTHROPIC_BASE_URL or your network`);
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
    await expect(creating).rejects.toThrow('ANTHROPIC_API_KEY is not set: export it, or use --provider echo');
  });
});
