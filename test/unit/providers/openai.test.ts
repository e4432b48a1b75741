import { describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/index.js';
import { UserError } from '../../../src/session/api/errors.js';
import { refusedURL, startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { describeStreamContract } from './stream-contract.js';
import { consume, conversation, sdkProviderFor } from './stream-helpers.js';

const KEY = 'sk-proj-test-0123456789abcdef';

const { providerFor, serve } = sdkProviderFor('openai', 'gpt-test', KEY);

describe('openai provider', () => {
  describeStreamContract('openai', {
    model: 'gpt-test',
    key: KEY,
    keyRejected: `Incorrect API key provided: ${KEY}`,
    modelNotFound: 'The model `gpt-test` does not exist',
    endOfStream: 'a finish_reason',
    basePath: '/v1',
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

  it('429 for an exhausted quota: says it is credit, not speed', async () => {
    const { provider } = await serve({ status: 429, message: 'You exceeded your current quota, please check your plan and billing details.' });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('out of credit (429): check the plan and billing of the account behind OPENAI_API_KEY');
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
    await expect(createProvider(choice, {})).rejects.toMatchObject({ message: 'OPENAI_API_KEY is not set: export it.', advice: { to: 'Or chat offline:', run: ['--provider', 'echo'] } });
    const server = await startFakeLlmServer('openai', { text: ['local'] });
    const local = await createProvider(choice, { OPENAI_BASE_URL: server.baseURL });
    expect((await consume(local.stream(conversation))).text).toBe('local');
  });
});
