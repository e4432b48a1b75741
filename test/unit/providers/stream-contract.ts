/**
 * The cases every SDK provider must pass the same way: how a reply streams, how the common
 * HTTP failures read, and what a cut, an early end or an abort does to the stream. Each
 * provider's test file calls `describeStreamContract` inside its own `describe`, and keeps
 * the cases only its API has (its request body, its own error answers) to itself.
 */
import { expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/index.js';
import { refusedURL, startFakeLlmServer, type FakeApi } from '../../helpers/fake-llm-server.js';
import { consume, conversation, pieces, sdkProviderFor } from './stream-helpers.js';

/** The provider under test, and the few things its API says or does its own way. */
export interface StreamContractSubject {
  /** The model the provider is built with. */
  model: string;
  /** The API key it is given, which no message may show. */
  key: string;
  /** What the API's server says in a 401, with the key in it. */
  keyRejected: string;
  /** What the API's server says in a 404 about an unknown `model`. */
  modelNotFound: string;
  /** The event that ends a complete stream of this API, for a test name: `message_stop`. */
  endOfStream: string;
  /** The path the API's base URL ends with: '' for Anthropic, '/v1' for OpenAI. */
  basePath: string;
}

/** Registers the streaming contract's cases for `api` in the current `describe`. */
export function describeStreamContract(api: FakeApi, subject: StreamContractSubject): void {
  const { model } = subject;
  const { providerFor, serve } = sdkProviderFor(api, model, subject.key);
  const keyVar = `${api.toUpperCase()}_API_KEY`;
  const baseVar = `${api.toUpperCase()}_BASE_URL`;
  const cutOff = 'the reply was cut off mid-stream: the partial reply is kept';

  it('streams the reply in pieces that concatenate exactly, then reports usage', async () => {
    const { server, provider } = await serve({ text: pieces, usage: { input: 42, output: 17 } });
    expect(provider).toMatchObject({ name: api, model, label: `${api} ${model} (${new URL(server.origin).host})` });
    const seen = await consume(provider.stream(conversation));
    expect(seen.error).toBeUndefined();
    expect(seen.pieces).toEqual(pieces);
    expect(seen.text).toBe('Your name is Ada.\n\nGrüße 🙂 — bye');
    expect(seen.usage).toEqual({ type: 'usage', usage: { inputTokens: 42, outputTokens: 17 } });
  });

  it('401: says the key was rejected and which variable to check, never showing the key', async () => {
    const { provider } = await serve({ status: 401, message: subject.keyRejected });
    expect(subject.keyRejected).toContain(subject.key);
    const { error } = await consume(provider.stream(conversation));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(`the API key was rejected (401): check ${keyVar}`);
    expect((error as ProviderError).exitCode).toBe(1);
  });

  it('429: says when to try again, from retry-after', async () => {
    const { provider } = await serve({ status: 429, headers: { 'retry-after': '20' } });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe('rate limited (429): try again in 20 s');
  });

  it('500: a server error to try again, after the SDK used up its retries', async () => {
    const server = await startFakeLlmServer(api, { status: 500, headers: { 'retry-after-ms': '1' } });
    const provider = await providerFor(server.baseURL, 1);
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe(`server error (500) from ${api}: try again`);
    expect(server.requests).toHaveLength(2);
  });

  it('404 about the model: names the model and the --model flag', async () => {
    const { provider } = await serve({ status: 404, message: subject.modelNotFound });
    const { error } = await consume(provider.stream(conversation));
    expect((error as Error).message).toBe(`unknown model "${model}" (404): pick one with --model`);
  });

  it('a stream dropped midway: the partial text arrives, then the cut-off error', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 3 });
    const seen = await consume(provider.stream(conversation), (piece) => {
      if (piece === ' Ada') server.drop(0);
    });
    expect(seen.text).toBe('Your name is Ada');
    expect(seen.usage).toBeUndefined();
    expect(seen.error).toBeInstanceOf(ProviderError);
    expect((seen.error as Error).message).toBe(cutOff);
  });

  it(`a stream that ends early without ${subject.endOfStream} is cut off too`, async () => {
    const { provider } = await serve({ text: pieces, cutAfter: 2 });
    const seen = await consume(provider.stream(conversation));
    expect(seen.text).toBe('Your name is');
    expect((seen.error as Error).message).toBe(cutOff);
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

  it('abort while waiting for the answer, before any text: ends quietly with nothing', async () => {
    const { server, provider } = await serve({ text: pieces, hangAfter: 0 });
    const controller = new AbortController();
    const streaming = consume(provider.stream(conversation, { signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await streaming).toMatchObject({ pieces: [], error: undefined });
  });

  it(`connection refused: names the URL and ${baseVar}`, async () => {
    const url = `${await refusedURL()}${subject.basePath}`;
    const { error } = await consume((await providerFor(url)).stream(conversation));
    expect((error as Error).message).toBe(`cannot reach ${url}: check ${baseVar} or your network`);
  });
}
