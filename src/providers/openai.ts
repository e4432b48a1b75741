/**
 * The `openai` provider through the official `openai` SDK (imported only when this module is:
 * `createProvider` loads it lazily). Speaks Chat Completions, so it works with OpenAI and any
 * compatible server behind `OPENAI_BASE_URL` (Ollama, llama.cpp, vLLM, LM Studio).
 */
import type OpenAI from 'openai';

/** The SDK's client class, loaded by `create()`: a static import would put it on the start-up path. */
type Sdk = typeof import('openai').default;
import type { Message, Usage } from '../session/api/data.js';
import { throwUnlessAborted, type FailureContext } from './describe-failure.js';
import { wireTurns } from './message-text.js';
import { openaiMessage } from './wire-blocks.js';
import { ProviderError } from './provider-error.js';
import { sdkProviderSetup } from './sdk-provider.js';
import type { SdkProviderSettings } from './sdk-settings.js';
import type { Provider, StreamEvent, StreamOptions } from '../models/types.js';

/** Chat Completions, streamed, with usage in a final chunk. */
export class OpenAIProvider implements Provider {
  readonly name = 'openai';

  private constructor(
    private readonly sdk: Sdk,
    private readonly client: OpenAI,
    readonly model: string,
    readonly label: string,
    private readonly failure: FailureContext,
  ) {}

  /** Builds the provider, loading the SDK only now. */
  static async create(settings: SdkProviderSettings): Promise<OpenAIProvider> {
    const { default: OpenAISdk } = await import('openai');
    const setup = sdkProviderSetup('openai', settings);
    return new OpenAIProvider(OpenAISdk, new OpenAISdk(setup.clientOptions), settings.model, setup.label, setup.failure);
  }

  /** Starts the streamed request; asks for usage, unless the server refuses that option (some older compatible servers do). */
  private async open(
    model: string,
    messages: OpenAI.ChatCompletionMessageParam[],
    signal: AbortSignal | undefined,
  ): Promise<AsyncIterable<OpenAI.ChatCompletionChunk>> {
    try {
      return await this.client.chat.completions.create(
        { model, messages, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
    } catch (error) {
      if (!(error instanceof this.sdk.BadRequestError && /stream_options/i.test(error.message))) throw error;
      return await this.client.chat.completions.create({ model, messages, stream: true }, { signal });
    }
  }

  /**
   * Yields text deltas, then usage when the server reports it. An abort ends the stream
   * quietly (the caller sees `signal.aborted`); any other failure is a ProviderError, after
   * the text that did arrive.
   */
  async *stream(messages: readonly Message[], options: StreamOptions = {}): AsyncIterable<StreamEvent> {
    const { signal } = options;
    const model = options.model ?? this.model;
    const failure = { ...this.failure, model };
    const { system, turns } = wireTurns(messages, options.system);
    const wire: OpenAI.ChatCompletionMessageParam[] = [...(system ? [{ role: 'system' as const, content: system }] : []), ...turns.map(openaiMessage)];
    let chunks: AsyncIterable<OpenAI.ChatCompletionChunk>;
    try {
      chunks = await this.open(model, wire, signal);
    } catch (error) {
      throwUnlessAborted(error, this.sdk, failure, 'request', signal);
      return;
    }
    let usage: Usage | undefined;
    let finished = false;
    try {
      for await (const chunk of chunks) {
        const choice = chunk.choices[0];
        const text = choice?.delta?.content;
        if (text) yield { type: 'text', text };
        if (choice?.finish_reason) finished = true;
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      }
    } catch (error) {
      throwUnlessAborted(error, this.sdk, failure, 'stream', signal);
      return;
    }
    if (signal?.aborted) return;
    // Without [DONE] the SDK just ends; a reply with no finish_reason was cut short.
    if (!finished) throw ProviderError.cutOff();
    if (usage) yield { type: 'usage', usage };
  }
}
