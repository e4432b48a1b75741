/**
 * Which assistant a REPL talks to, and why (docs/design.md §20). Pure: the
 * caller passes flags, the resumed session's record, both config objects and the environment.
 */
import { UserError } from '../session/api/errors.js';
import { printable } from '../session/api/errors.js';
import type { ConfigFiles, ConfigSource } from '../session/api/data.js';

/** The assistants chatkeep knows. */
export type ProviderName = 'echo' | 'anthropic' | 'openai';

/** Every provider name, in the order shown to users. */
export const PROVIDER_NAMES: readonly ProviderName[] = ['echo', 'anthropic', 'openai'];

/** The model used when none is given by flag, session or config. */
export const DEFAULT_MODELS: Readonly<Record<ProviderName, string | null>> = {
  echo: null,
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-4o-mini',
};

/** The environment variable holding each provider's API key. */
export const API_KEY_VARS: Readonly<Record<Exclude<ProviderName, 'echo'>, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/** The outcome of `chooseProvider`: what to create, and where the choice came from. */
export interface ProviderChoice {
  name: ProviderName;
  /** The model to use: null for echo, else the chosen or default model. */
  model: string | null;
  /** Where the choice came from (`flag` when `--provider` or `--model` decided it). */
  source: ConfigSource;
}

/** Everything `chooseProvider` looks at. */
export interface ChooseProviderInput {
  flagProvider?: string;
  flagModel?: string;
  /** The resumed session's recorded provider; absent for a new session. */
  session?: { name: string; model: string | null };
  config: ConfigFiles;
  env: Record<string, string | undefined>;
}

interface Layer {
  source: ConfigSource;
  provider?: string;
  model?: string;
}

/**
 * Picks the provider: flag > session (a resumed session keeps its provider unless a flag
 * overrides) > project config > user config > the first API key in the environment
 * (`ANTHROPIC_API_KEY`, then `OPENAI_API_KEY`) > echo. The model comes from the highest
 * layer that gives one and does not name a different provider; else the provider's default.
 * Config keys: `provider`, `model`. An unknown name is a UserError (exit 2) listing the valid ones.
 */
export function chooseProvider(input: ChooseProviderInput): ProviderChoice {
  const layers: Layer[] = [
    { source: 'flag', provider: nonEmpty(input.flagProvider), model: nonEmpty(input.flagModel) },
    ...(input.session ? [{ source: 'session' as const, provider: input.session.name, model: input.session.model ?? undefined }] : []),
    configLayer('project', input.config.project),
    configLayer('user', input.config.user),
  ];
  const decided = layers.find((l) => l.provider !== undefined);
  let name: ProviderName;
  let source: ConfigSource;
  if (decided?.provider !== undefined) {
    name = parseProviderName(decided.provider, decided.source);
    source = decided.source;
  } else if (nonEmpty(input.env.ANTHROPIC_API_KEY)) {
    [name, source] = ['anthropic', 'env'];
  } else if (nonEmpty(input.env.OPENAI_API_KEY)) {
    [name, source] = ['openai', 'env'];
  } else {
    [name, source] = ['echo', 'default'];
  }
  if (name === 'echo') return { name, model: null, source };
  // A model only applies to the provider its layer chose (or to any, when its layer names none).
  const modelLayer = layers.find(
    (l) => l.model !== undefined && (l.provider === undefined || safeName(l.provider) === name),
  );
  const model = modelLayer?.model ?? DEFAULT_MODELS[name];
  return { name, model, source: modelLayer?.source === 'flag' ? 'flag' : source };
}

/** Validates a provider name (case-insensitive); unknown → UserError listing the valid names. */
export function parseProviderName(raw: string, source: ConfigSource = 'flag'): ProviderName {
  const name = safeName(raw);
  if (name) return name;
  const where = source === 'flag' ? '--provider' : source === 'session' ? 'the session' : `${source} config \`provider\``;
  throw new UserError(
    `Unknown provider \`${printable(raw)}\` (from ${where}): use one of ${PROVIDER_NAMES.join(', ')}.`,
    'E_UNKNOWN_PROVIDER',
  );
}

function safeName(raw: string): ProviderName | undefined {
  const name = raw.trim().toLowerCase();
  return PROVIDER_NAMES.find((n) => n === name);
}

function configLayer(source: 'project' | 'user', config: Record<string, unknown>): Layer {
  return { source, provider: configString(config, 'provider', source), model: configString(config, 'model', source) };
}

function configString(config: Record<string, unknown>, key: string, source: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new UserError(`The ${source} config key \`${key}\` must be a string, not ${typeof value}: fix config.json.`, 'E_CONFIG');
  }
  return nonEmpty(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
