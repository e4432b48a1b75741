/**
 * Placeholder until the SDK-backed provider lands (same branch, next commits).
 */
import type { SdkProviderSettings } from './index.js';
import { ProviderError } from './provider-error.js';
import type { Provider } from './types.js';

/** The `anthropic` provider (not built yet). */
export class AnthropicProvider {
  /** Builds the provider from its settings. */
  static create(settings: SdkProviderSettings): Provider {
    throw new ProviderError(`the anthropic provider is not built yet (model ${settings.model}): use --provider echo`);
  }
}
