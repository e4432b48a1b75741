/**
 * Words for where a setting came from (`ConfigSource`) and for an assistant record, shared by
 * `/status`, `/model`, `/provider`, `/system` and `sessions show`.
 */
import type { ConfigSource, ProviderRecord } from '../session/api/data.js';

const WORDS: Record<ConfigSource, string> = {
  command: 'set in the chat',
  flag: 'from a flag',
  env: 'from the API key in the environment',
  project: 'from project config',
  user: 'from user config',
  default: 'the default',
  session: 'kept from the session',
};

/** ` (set in the chat)`, or nothing when the source is not recorded. */
export function sourceNote(source: ConfigSource | undefined): string {
  return source ? ` (${WORDS[source]})` : '';
}

/** `echo (offline)`, `openai gpt-4o-mini`: the label a provider shows, from what a session records. */
export function providerLabel(provider: Pick<ProviderRecord, 'name' | 'model'>): string {
  return provider.name === 'echo' ? 'echo (offline)' : `${provider.name}${provider.model ? ` ${provider.model}` : ''}`;
}
