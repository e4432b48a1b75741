/**
 * What the two SDK-backed providers derive the same way from their settings: the SDK client's
 * options, the label the REPL shows, and what a failure message names. It imports no SDK:
 * each provider still loads its own in `create()`, so none is on the start-up path.
 */
import { hostOf, shownURL, type FailureContext } from './describe-failure.js';
import { httpFetch } from './http-fetch.js';
import { API_KEY_VARS } from '../models/choose-provider.js';
import { BASE_URL_VARS, DEFAULT_BASE_URLS, type SdkProviderName, type SdkProviderSettings } from './sdk-settings.js';

/** The client options both official SDKs take under these names. */
export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  maxRetries: number;
  timeout?: number;
  /** Requests over node:http (http-fetch.ts), not the global fetch. */
  fetch: typeof httpFetch;
}

/** A provider's client options, label and failure context, from its settings. */
export interface SdkProviderSetup {
  clientOptions: SdkClientOptions;
  /** `anthropic claude-…`, with the host added when the base URL is not the default. */
  label: string;
  failure: FailureContext;
}

/**
 * Derives what `name`'s provider is built from. Key and base URL are always explicit, so the
 * SDK reads nothing from `process.env` itself; `ANTHROPIC_*` or `OPENAI_*` are the variables
 * a failure message tells the user to check.
 */
export function sdkProviderSetup(name: SdkProviderName, settings: SdkProviderSettings): SdkProviderSetup {
  const { apiKey, model } = settings;
  const defaultBaseURL = DEFAULT_BASE_URLS[name];
  const baseURL = settings.baseURL ?? defaultBaseURL;
  const [keyVar, baseVar] = [API_KEY_VARS[name], BASE_URL_VARS[name]];
  return {
    clientOptions: {
      apiKey,
      baseURL,
      maxRetries: settings.maxRetries,
      ...(settings.timeoutMs === undefined ? {} : { timeout: settings.timeoutMs }),
      fetch: httpFetch,
    },
    label: baseURL === defaultBaseURL ? `${name} ${model}` : `${name} ${model} (${hostOf(baseURL)})`,
    failure: { provider: name, model, baseURL: shownURL(baseURL), keyVar, baseVar, apiKey },
  };
}
