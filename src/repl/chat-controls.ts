/**
 * The assistant and system prompt the next chat turns use, and switching them mid-chat
 * (`/model`, `/provider`, `/system`). Each switch is recorded in the session with source
 * `command` before it takes effect, so a resume carries it on.
 */
// Types only, from modules the package ships: the providers themselves run from the CLI's bundle.
import type { ProviderName } from '../models/choose-provider.js';
import type { LoadedSystemPrompt, Provider } from '../models/types.js';
import { ChatkeepError, MissingApiKeyError } from '../session/api/errors.js';
import type { HostName } from './host.js';
import type { ConfigSource, SystemPromptRef } from '../session/api/data.js';
import type { Session } from '../session/api/session-api.js';

/** What the chat turns read and what the commands change. */
export interface ChatControls {
  /** The assistant answering the next turns. */
  readonly provider: Provider;
  /** Where that assistant was chosen (a flag, config, the API key in the environment, the session, /provider…); undefined when not known. */
  readonly providerSource: ConfigSource | undefined;
  /** The system prompt text sent with the next turns (null: none). */
  readonly system: string | null;
  /** Creates NAME's assistant (MODEL, or its default when null), records it, and uses it from the next turn on. */
  useProvider(name: ProviderName, model: string | null): Promise<Provider>;
  /** Reads FILE as the system prompt (null: none), records its path and hash, and uses it from the next turn on. */
  useSystemPrompt(file: string | null): Promise<SystemPromptRef | null>;
}

/** How assistants and prompts are made: start-up's own rules (API keys from the environment, paths from the project). */
export interface ChatFactories {
  makeProvider(name: ProviderName, model: string | null): Promise<Provider>;
  readSystemPrompt(file: string): Promise<LoadedSystemPrompt>;
}

/** Controls over the live session (`session()` changes after `/load`). */
export function createChatControls(
  session: () => Session,
  initial: { provider: Provider; system: string | null; providerSource?: ConfigSource },
  factories: ChatFactories,
): ChatControls {
  let provider = initial.provider;
  let providerSource = initial.providerSource;
  let system = initial.system;
  return {
    get provider() {
      return provider;
    },
    get system() {
      return system;
    },
    get providerSource() {
      return providerSource;
    },
    async useProvider(name, model) {
      // Created first: a missing key or bad URL leaves the current assistant in place.
      const next = await factories.makeProvider(name, model);
      await session().setProvider({ name: next.name, model: next.model }, 'command');
      provider = next;
      providerSource = 'command';
      return next;
    },
    async useSystemPrompt(file) {
      const loaded = file === null ? null : await factories.readSystemPrompt(file);
      await session().setSystemPrompt(loaded && loaded.ref, 'command');
      system = loaded?.text ?? null;
      return loaded && { ...loaded.ref, source: 'command' };
    },
  };
}

/**
 * The one line for a switch that failed (a missing API key, a bad base URL), or undefined for
 * errors that are bugs. The chat goes on with the assistant it has, so the way out is not the
 * error's advice: a key exported now reaches this process only when the host starts again.
 */
export function switchFailure(err: unknown, current: Provider, host: HostName): string | undefined {
  if (!(err instanceof ChatkeepError)) return undefined;
  const message = err instanceof MissingApiKeyError ? `${err.variable} is not set: export it and start ${host.program} again.` : err.message;
  return `${message}${message.endsWith('.') ? '' : '.'} Still using ${current.label}.`;
}
