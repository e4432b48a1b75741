/**
 * The assistants (docs/design.md §20): choose one, create it. SDKs are imported only when their
 * provider is created, so start-up stays fast and echo never loads one.
 */
import { MissingApiKeyError, UserError, printable } from '../session/api/errors.js';
import { API_KEY_VARS, DEFAULT_MODELS, type ProviderChoice } from '../models/choose-provider.js';
import { EchoProvider, echoDelayFrom } from './echo.js';
import { BASE_URL_VARS, DEFAULT_BASE_URLS, type SdkProviderSettings } from './sdk-settings.js';
import type { Provider } from '../models/types.js';

export {
  API_KEY_VARS,
  DEFAULT_MODELS,
  PROVIDER_NAMES,
  chooseProvider,
  parseProviderName,
  type ChooseProviderInput,
  type ProviderChoice,
  type ProviderName,
} from '../models/choose-provider.js';
export { EchoProvider, echoReply, splitWords, countWords } from './echo.js';
export { ProviderError, type ProviderErrorKind } from './provider-error.js';
export { loadSystemPrompt, MAX_SYSTEM_PROMPT_BYTES, type LoadedSystemPrompt } from './system-prompt.js';
export type { Provider, StreamEvent, StreamOptions } from '../models/types.js';

/** Options for `createProvider`, mostly for tests. */
export interface CreateProviderOptions {
  /** SDK retries on connection errors, 408/409/429/5xx (default `CHATKEEP_MAX_RETRIES`, else 2). */
  maxRetries?: number;
  /** Request timeout in ms (default 10 min, the SDKs' own). */
  timeoutMs?: number;
  /** Whether a person watches the reply stream (a terminal): echo pauses between words only then, unless told. */
  watched?: boolean;
}

/**
 * Creates the chosen provider, importing its SDK lazily. A missing API key for the chosen
 * provider is a UserError: `ANTHROPIC_API_KEY is not set: export it.`, offline its advice.
 * `OPENAI_API_KEY` may be missing when `OPENAI_BASE_URL` points at a local server (Ollama,
 * llama.cpp, vLLM, LM Studio), which needs none.
 */
export async function createProvider(
  choice: ProviderChoice,
  env: Record<string, string | undefined>,
  options: CreateProviderOptions = {},
): Promise<Provider> {
  if (choice.name === 'echo') return new EchoProvider(echoDelayFrom(env, options.watched ?? true));
  const keyVar = API_KEY_VARS[choice.name];
  const baseVar = BASE_URL_VARS[choice.name];
  const baseURL = env[baseVar]?.trim() || undefined;
  if (baseURL !== undefined && !/^https?:\/\/[^/]/i.test(baseURL)) {
    const example = choice.name === 'anthropic' ? DEFAULT_BASE_URLS.anthropic : 'http://localhost:11434/v1';
    throw new UserError(`${baseVar} \`${printable(baseURL)}\` is not an http(s) URL: set it to one such as ${example}`, 'E_BASE_URL');
  }
  let apiKey = env[keyVar]?.trim();
  if (!apiKey && choice.name === 'openai' && baseURL) apiKey = 'none';
  if (!apiKey) throw new MissingApiKeyError(keyVar);
  const settings: SdkProviderSettings = {
    apiKey,
    baseURL,
    model: choice.model ?? DEFAULT_MODELS[choice.name] ?? '',
    maxRetries: options.maxRetries ?? retriesFrom(env),
    timeoutMs: options.timeoutMs,
  };
  if (choice.name === 'anthropic') {
    const { AnthropicProvider } = await import('./anthropic.js');
    return AnthropicProvider.create(settings);
  }
  const { OpenAIProvider } = await import('./openai.js');
  return OpenAIProvider.create(settings);
}

function retriesFrom(env: Record<string, string | undefined>): number {
  const n = Number(env.CHATKEEP_MAX_RETRIES);
  return env.CHATKEEP_MAX_RETRIES?.trim() && Number.isInteger(n) && n >= 0 ? n : 2;
}
