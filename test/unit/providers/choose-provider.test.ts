import { describe, expect, it } from 'vitest';
import { chooseProvider, type ChooseProviderInput } from '../../../src/providers/index.js';
import { UserError } from '../../../src/session/api/errors.js';

const none = { user: {}, project: {} };
const anthropicKey = { ANTHROPIC_API_KEY: 'sk-ant-x' };
const openaiKey = { OPENAI_API_KEY: 'sk-x' };

describe('chooseProvider precedence', () => {
  const table: [string, ChooseProviderInput, ReturnType<typeof chooseProvider>][] = [
    ['no key, no config: echo', { config: none, env: {} }, { name: 'echo', model: null, source: 'default' }],
    ['ANTHROPIC_API_KEY', { config: none, env: anthropicKey }, { name: 'anthropic', model: 'claude-sonnet-5-5', source: 'env' }],
    ['OPENAI_API_KEY', { config: none, env: openaiKey }, { name: 'openai', model: 'gpt-4o-mini', source: 'env' }],
    ['both keys: Anthropic first', { config: none, env: { ...openaiKey, ...anthropicKey } }, { name: 'anthropic', model: 'claude-sonnet-5-5', source: 'env' }],
    ['an empty key does not count', { config: none, env: { ANTHROPIC_API_KEY: ' ', ...openaiKey } }, { name: 'openai', model: 'gpt-4o-mini', source: 'env' }],
    ['user config beats the environment', { config: { user: { provider: 'openai' }, project: {} }, env: anthropicKey }, { name: 'openai', model: 'gpt-4o-mini', source: 'user' }],
    ['project config beats user config', { config: { user: { provider: 'openai' }, project: { provider: 'echo' } }, env: anthropicKey }, { name: 'echo', model: null, source: 'project' }],
    ['a config model with no provider applies to the key found', { config: { user: { model: 'gpt-5' }, project: {} }, env: openaiKey }, { name: 'openai', model: 'gpt-5', source: 'env' }],
    ['a model for another provider is not used', { config: { user: { provider: 'openai', model: 'llama3' }, project: { provider: 'anthropic' } }, env: {} }, { name: 'anthropic', model: 'claude-sonnet-5-5', source: 'project' }],
    ['project model beats user model', { config: { user: { provider: 'openai', model: 'a' }, project: { model: 'b' } }, env: {} }, { name: 'openai', model: 'b', source: 'user' }],
    ['a resumed session keeps its provider and model over config and env', { session: { name: 'openai', model: 'llama3' }, config: { user: { provider: 'anthropic' }, project: {} }, env: anthropicKey }, { name: 'openai', model: 'llama3', source: 'session' }],
    ['a resumed echo session stays echo', { session: { name: 'echo', model: null }, config: none, env: anthropicKey }, { name: 'echo', model: null, source: 'session' }],
    ['--model overrides the session model', { flagModel: 'gpt-5', session: { name: 'openai', model: 'llama3' }, config: none, env: {} }, { name: 'openai', model: 'gpt-5', source: 'flag' }],
    ['--provider overrides the session; its model is not carried across', { flagProvider: 'anthropic', session: { name: 'openai', model: 'llama3' }, config: none, env: {} }, { name: 'anthropic', model: 'claude-sonnet-5-5', source: 'flag' }],
    ['--provider beats everything, with --model', { flagProvider: 'openai', flagModel: 'qwen2.5', session: { name: 'anthropic', model: 'x' }, config: { user: {}, project: { provider: 'echo' } }, env: anthropicKey }, { name: 'openai', model: 'qwen2.5', source: 'flag' }],
    ['--provider picks up a config model meant for it', { flagProvider: 'openai', config: { user: { provider: 'openai', model: 'llama3' }, project: {} }, env: {} }, { name: 'openai', model: 'llama3', source: 'flag' }],
    ['--provider echo ignores --model', { flagProvider: 'echo', flagModel: 'gpt-5', config: none, env: openaiKey }, { name: 'echo', model: null, source: 'flag' }],
    ['names are case-insensitive', { flagProvider: ' OpenAI ', config: none, env: {} }, { name: 'openai', model: 'gpt-4o-mini', source: 'flag' }],
  ];
  it.each(table)('%s', (_label, input, expected) => {
    expect(chooseProvider(input)).toEqual(expected);
  });
});

describe('chooseProvider refusals', () => {
  it('an unknown --provider is a UserError (exit 2) listing the valid names', () => {
    const choosing = () => chooseProvider({ flagProvider: 'gemini', config: none, env: {} });
    expect(choosing).toThrow(UserError);
    expect(choosing).toThrow('Unknown provider `gemini` (from --provider): use one of echo, anthropic, openai.');
    try {
      choosing();
    } catch (error) {
      expect((error as UserError).exitCode).toBe(2);
    }
  });

  it('an unknown provider in config names the config', () => {
    expect(() => chooseProvider({ config: { user: {}, project: { provider: 'ollama' } }, env: {} })).toThrow(
      'Unknown provider `ollama` (from project config `provider`): use one of echo, anthropic, openai.',
    );
  });

  it('a config value that is not a string is refused', () => {
    expect(() => chooseProvider({ config: { user: { model: 4 }, project: {} }, env: {} })).toThrow(
      'The user config key `model` must be a string, not number: fix config.json.',
    );
  });
});
