/**
 * The `anthropic` provider through the official `@anthropic-ai/sdk` (imported only when this
 * module is: `createProvider` loads it lazily). Streams `messages.create({stream: true})`.
 */
import type Anthropic from '@anthropic-ai/sdk';

/** The SDK's client class, loaded by `create()`: a static import would put it on the start-up path. */
type Sdk = typeof import('@anthropic-ai/sdk').default;
import type { Message, Usage } from '../session/types.js';
import { throwUnlessAborted, type FailureContext } from './describe-failure.js';
import type { SdkProviderSettings } from './index.js';
import { textTurns } from './message-text.js';
import { ProviderError } from './provider-error.js';
import { sdkProviderSetup } from './sdk-provider.js';
import type { Provider, StreamEvent, StreamOptions } from './types.js';

/** The public API's address, used when `ANTHROPIC_BASE_URL` is not set. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** Upper bound on a reply's length; the API requires one. */
export const ANTHROPIC_MAX_TOKENS = 8192;

/** Claude through the Messages API, streamed. */
export class AnthropicProvider implements Provider {
  readonly name = 'anthropic';

  private constructor(
    private readonly sdk: Sdk,
    private readonly client: Anthropic,
    readonly model: string,
    readonly label: string,
    private readonly failure: FailureContext,
  ) {}

  /** Builds the provider, loading the SDK only now. */
  static async create(settings: SdkProviderSettings): Promise<AnthropicProvider> {
    const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
    const setup = sdkProviderSetup('anthropic', settings, ANTHROPIC_DEFAULT_BASE_URL);
    return new AnthropicProvider(AnthropicSdk, new AnthropicSdk(setup.clientOptions), settings.model, setup.label, setup.failure);
  }

  /**
   * Yields text deltas, then usage. An abort ends the stream quietly (the caller sees
   * `signal.aborted`); any other failure is a ProviderError, after the text that did arrive.
   */
  async *stream(messages: readonly Message[], options: StreamOptions = {}): AsyncIterable<StreamEvent> {
    const { signal } = options;
    const model = options.model ?? this.model;
    const failure = { ...this.failure, model };
    let events: AsyncIterable<Anthropic.MessageStreamEvent>;
    try {
      events = await this.client.messages.create(
        {
          model,
          max_tokens: ANTHROPIC_MAX_TOKENS,
          messages: textTurns(messages),
          ...(options.system ? { system: options.system } : {}),
          stream: true,
        },
        { signal },
      );
    } catch (error) {
      throwUnlessAborted(error, this.sdk, failure, 'request', signal);
      return;
    }
    const usage: Usage = { inputTokens: 0, outputTokens: 0 };
    let stopped = false;
    try {
      for await (const event of events) {
        if (event.type === 'message_start') {
          const u = event.message.usage;
          usage.inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          usage.outputTokens = u.output_tokens;
        } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          yield { type: 'text', text: event.delta.text };
        } else if (event.type === 'message_delta') {
          const u = event.usage;
          if (typeof u.input_tokens === 'number') {
            usage.inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          }
          usage.outputTokens = u.output_tokens;
        } else if (event.type === 'message_stop') {
          stopped = true;
        }
      }
    } catch (error) {
      throwUnlessAborted(error, this.sdk, failure, 'stream', signal);
      return;
    }
    if (signal?.aborted) return;
    if (!stopped) throw ProviderError.cutOff();
    yield { type: 'usage', usage };
  }
}
