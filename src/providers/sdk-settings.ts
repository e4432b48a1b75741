/**
 * What an SDK-backed provider is built from, and the variables and addresses that name its
 * server: one place for `createProvider` (index.ts), which reads them from the environment, and
 * for the providers (sdk-provider.ts, anthropic.ts, openai.ts), which use them. Imports no SDK.
 */

/** The providers that talk to a server through an official SDK. */
export type SdkProviderName = 'anthropic' | 'openai';

/** Settings an SDK provider is built from. */
export interface SdkProviderSettings {
  apiKey: string;
  baseURL: string | undefined;
  model: string;
  maxRetries: number;
  timeoutMs: number | undefined;
}

/** The environment variable that points each SDK provider at another server. */
export const BASE_URL_VARS: Readonly<Record<SdkProviderName, string>> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
};

/** Each public API's address, used when the provider's `*_BASE_URL` is not set. */
export const DEFAULT_BASE_URLS: Readonly<Record<SdkProviderName, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
};
