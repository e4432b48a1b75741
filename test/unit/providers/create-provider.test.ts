import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/providers/index.js';
import { startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import { consume, conversation } from './stream-helpers.js';

const providersDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/providers');

/** Runtime (non-type) import specifiers of a TypeScript source file. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
    if (!match[2]) specifiers.push(match[3] as string);
  }
  for (const match of source.matchAll(/^import\s+'([^']+)'/gm)) specifiers.push(match[1] as string);
  return specifiers;
}

describe('createProvider', () => {
  it('loads no SDK at start-up: no module imports one statically (the CLI bundle would hoist it)', () => {
    const sdk = /^(@anthropic-ai\/sdk|openai)(\/|$)/;
    const files = readdirSync(providersDir).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      for (const spec of runtimeImports(join(providersDir, name))) expect(spec, `${name} imports ${spec}`).not.toMatch(sdk);
    }
    // The SDK modules load their SDK when the provider is created: the check above would fail
    // if one went back to a static import.
    expect(readFileSync(join(providersDir, 'anthropic.ts'), 'utf8')).toContain("import('@anthropic-ai/sdk/client')");
    expect(readFileSync(join(providersDir, 'openai.ts'), 'utf8')).toContain("await import('openai')");
  });

  it('takes the SDK retry count from CHATKEEP_MAX_RETRIES', async () => {
    const server = await startFakeLlmServer('openai', { status: 500, headers: { 'retry-after-ms': '1' } });
    const choice = { name: 'openai', model: 'm', source: 'flag' } as const;
    const none = await createProvider(choice, { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '0' });
    await consume(none.stream(conversation));
    expect(server.requests).toHaveLength(1);
    const two = await createProvider(choice, { OPENAI_BASE_URL: server.baseURL, CHATKEEP_MAX_RETRIES: '2' });
    await consume(two.stream(conversation));
    expect(server.requests).toHaveLength(4);
  });

  it('uses the default model when the choice has none', async () => {
    const provider = await createProvider({ name: 'anthropic', model: null, source: 'env' }, { ANTHROPIC_API_KEY: 'k' });
    expect(provider.model).toBe('claude-sonnet-5-5');
    expect(provider.label).toBe('anthropic claude-sonnet-5-5');
  });
});
