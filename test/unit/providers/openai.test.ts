import { describe, expect, it } from 'vitest';
import { ProviderError, createProvider } from '../../../src/providers/index.js';
import type { Provider } from '../../../src/providers/types.js';
import { UserError } from '../../../src/session/errors.js';
import { refusedURL, startFakeLlmServer, type FakeReply } from '../../helpers/fake-llm-server.js';
import { consume, conversation, pieces } from './stream-helpers.js';

const KEY = 'sk-proj-test-0123456789abcdef';

async function providerFor(baseURL: string, maxRetries = 0): Promise<Provider> {
  return createProvider(
    { name: 'openai', model: 'gpt-test', source: 'flag' },
    { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: baseURL },
    { maxRetries },
  );
}

async function serve(replies: FakeReply | FakeReply[]) {
  const server = await startFakeLlmServer('openai', replies);
  return { server, provider: await providerFor(server.baseURL) };
}

describe('openai provider', () => {
  it('streams the reply in pieces that concatenate exactly, then reports usage from the last chunk', async () => {
    const { server, provider } = await serve({ text: pieces, usage: { input: 42, output: 17 } });
    expect(provider).toMatchObject({ name: 'openai', model: 'gpt-test', label: `openai gpt-test (${new URL(server.origin).host})` });
    const seen = await consume(provider.stream(conversation));
    expect(seen.error).toBeUndefined();
    expect(seen.pieces).toEqual(pieces);
    expect(seen.text).toBe('Your name is Ada.\n\nGrüße 🙂 — bye');
    expect(seen.usage).toEqual({ type: 'usage', usage: { inputTokens: 42, outputTokens: 17 } });
  });

  it('ends without a usage event when the server reports none', async () => {
    const { provider } = await serve({ text: ['ok'] });
    const seen = await consume(provider.stream(conversation));
    expect(seen.error).toBeUndefined();
    expect(seen.text).toBe('ok');
    expect(seen.usage).toBeUndefined();
  });

  it('sends the whole conversation after the system prompt, asks for usage, and sends the key', async () => {
    const { server, provider } = await serve({ text: ['ok'] });
    await consume(provider.stream(conversation, { system: 'You are terse.' }));
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Nice to meet you, Ada.' },
        { role: 'assistant', content: '[tool call call_1: clock({"tz":"UTC"})]' },
        { role: 'user', content: '[tool result call_1]\n10:00' },
        { role: 'user', content: 'What is my name?' },
      ],
    });
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('asks again without stream_options when an older server refuses it', async () => {
    const server = await startFakeLlmServer('openai', (request) =>
      request.body.stream_options
        ? { status: 400, message: 'Unrecognized request argument supplied: stream_options' }
        : { text: ['still ', 'here'] },
    );
    const seen = await consume((await providerFor(server.baseURL)).stream(conversation));
    expect(seen).toMatchObject({ text: 'still here', error: undefined, usage: undefined });
    expect(server.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false]);
  });

  it('sends no system message without a system prompt', async () => {
    const { server, provider } = await serve({ text: ['ok'] });
    await consume(provider.stream(conversation.slice(0, 1)));
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'My name is Ada.' }]);
  });

  it('401: says the key was rejected and which variable to check, never showing the key', async () => {
    const { provider } = await serve({ status: 401, message: `Incorrect API key provided: ${KEY}` });
    const { error } = await consume(provider.stream(conversation));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe('the API key was rejected (401): check OPENAI_API_KEY');
  });

  it('429: says when to try again, from retry-after', async () => {
    const { provider } = await serve({ status: 429, headers: { 'retry-after': '7' } });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('rate limited (429): try again in 7 s');
  });

  it('429 for an exhausted quota: says it is credit, not speed', async () => {
    const { provider } = await serve({ status: 429, message: 'You exceeded your current quota, please check your plan and billing details.' });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('out of credit (429): check the plan and billing of the account behind OPENAI_API_KEY');
  });

  it('500: a server error to try again, after the SDK used up its retries', async () => {
    const server = await startFakeLlmServer('openai', { status: 500, headers: { 'retry-after-ms': '1' } });
    const provider = await providerFor(server.baseURL, 1);
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('server error (500) from openai: try again');
    expect(server.requests).toHaveLength(2);
  });

  it('404 about the model: names the model and the --model flag', async () => {
    const { provider } = await serve({ status: 404, message: 'The model `gpt-test` does not exist' });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('unknown model "gpt-test" (404): pick one with --model');
  });

  it('404 that is not about a model: points at OPENAI_BASE_URL', async () => {
    const { server, provider } = await serve({ status: 404, message: '404 page not found' });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe(`nothing found at ${server.baseURL} (404): check OPENAI_BASE_URL`);
  });

  it('400: passes on what the server said, with the key masked', async () => {
    const { provider } = await serve({ status: 400, message: `context too long for key ${KEY}` });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('the request was refused (400): context too long for key ***');
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

  it('a stream that ends early without a finish_reason is cut off too', async () => {
    const { provider } = await serve({ text: pieces, cutAfter: 2 });
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

  it('abort while waiting for the answer: ends quietly with nothing', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 0 });
    const controller = new AbortController();
    const streaming = consume(provider.stream(conversation, { signal: controller.signal }));
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    const seen = await streaming;
    expect(seen).toMatchObject({ pieces: [], error: undefined });
  });

  it('connection refused: names the URL and OPENAI_BASE_URL', async () => {
    const url = `${await refusedURL()}/v1`;
    const { error } = await consume((await providerFor(url)).stream(conversation));
    expect((error as Error).message).toBe(`cannot reach ${url}: check OPENAI_BASE_URL or your network`);
  });

  it('never shows a user name or password from OPENAI_BASE_URL', async () => {
    const url = new URL(`${await refusedURL()}/v1`);
    url.username = 'me';
    url.password = 'hunter2';
    const { error } = await consume((await providerFor(url.href)).stream(conversation));
    expect((error as Error).message).toBe(`cannot reach http://${url.host}/v1: check OPENAI_BASE_URL or your network`);
  });

  it('refuses an OPENAI_BASE_URL that is not an http(s) URL', async () => {
    const creating = createProvider({ name: 'openai', model: 'llama3', source: 'flag' }, { OPENAI_BASE_URL: 'localhost:11434' });
    await expect(creating).rejects.toThrow(UserError);
    await expect(creating).rejects.toThrow(
      'OPENAI_BASE_URL `localhost:11434` is not an http(s) URL: set it to one such as http://localhost:11434/v1',
    );
  });

  it('needs OPENAI_API_KEY, except for a local server set by OPENAI_BASE_URL', async () => {
    const choice = { name: 'openai', model: 'llama3', source: 'flag' } as const;
    await expect(createProvider(choice, {})).rejects.toThrow(UserError);
    await expect(createProvider(choice, {})).rejects.toThrow('OPENAI_API_KEY is not set: export it, or use --provider echo');
    const server = await startFakeLlmServer('openai', { text: ['local'] });
    const local = await createProvider(choice, { OPENAI_BASE_URL: server.baseURL });
    expect((await consume(local.stream(conversation))).text).toBe('local');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
