/**
 * The `anthropic` provider through the official `@anthropic-ai/sdk` (imported only when this
 * module is: `createProvider` loads it lazily). Streams `messages.create({stream: true})`.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { BaseAnthropic } from '@anthropic-ai/sdk/client';
import type { Messages } from '@anthropic-ai/sdk/resources/messages';

/**
 * The SDK's base client class (it carries the error classes), loaded by `create()`: a static
 * import would put it on the start-up path.
 */
type Sdk = typeof BaseAnthropic;
/** The SDK's client with the one resource chatkeep uses. */
type Client = BaseAnthropic & { messages: Messages };
import type { Message, Usage } from '../session/api/data.js';
import { throwUnlessAborted, type FailureContext } from './describe-failure.js';
import { wireTurns } from './message-text.js';
import { anthropicMessage } from './wire-blocks.js';
import { ProviderError } from './provider-error.js';
import { sdkProviderSetup } from './sdk-provider.js';
import type { SdkProviderSettings } from './sdk-settings.js';
import type { Provider, StreamEvent, StreamOptions } from '../models/types.js';

/** Upper bound on a reply's length; the API requires one. */
export const ANTHROPIC_MAX_TOKENS = 8192;

/** Claude through the Messages API, streamed. */
export class AnthropicProvider implements Provider {
  readonly name = 'anthropic';

  private constructor(
    private readonly sdk: Sdk,
    private readonly client: Client,
    readonly model: string,
    readonly label: string,
    private readonly failure: FailureContext,
  ) {}

  /**
   * Builds the provider, loading the SDK only now: its base client and the Messages resource,
   * which is what the full `Anthropic` client adds `messages` from. The full client also builds
   * every other resource (beta, files, models, organization…): loading all of them took 35 ms
   * of the first request's path even bundled, against 20 ms for these two.
   */
  static async create(settings: SdkProviderSettings): Promise<AnthropicProvider> {
    const [{ BaseAnthropic: Base }, { Messages: MessagesResource }] = await Promise.all([
      import('@anthropic-ai/sdk/client'),
      import('@anthropic-ai/sdk/resources/messages'),
    ]);
    const setup = sdkProviderSetup('anthropic', settings);
    const client = new Base(setup.clientOptions) as Client;
    client.messages = new MessagesResource(client);
    return new AnthropicProvider(Base, client, settings.model, setup.label, setup.failure);
  }

  /**
   * Yields text deltas, then usage. An abort ends the stream quietly (the caller sees
   * `signal.aborted`); any other failure is a ProviderError, after the text that did arrive.
   */
  async *stream(messages: readonly Message[], options: StreamOptions = {}): AsyncIterable<StreamEvent> {
    const { signal } = options;
    const model = options.model ?? this.model;
    const failure = { ...this.failure, model };
    const wire = wireTurns(messages, options.system);
    const system = wire.system;
    let events: AsyncIterable<Anthropic.MessageStreamEvent>;
    try {
      events = await this.client.messages.create(
        {
          model,
          max_tokens: ANTHROPIC_MAX_TOKENS,
          messages: wire.turns.map(anthropicMessage),
          ...(system ? { system } : {}),
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
