import { readFileSync } from 'node:fs';
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
  it('loads no SDK at start-up: index.ts and what it imports eagerly never import one', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of runtimeImports(file)) {
        expect(spec, `${file} imports ${spec}`).not.toMatch(/^(@anthropic-ai\/sdk|openai)(\/|$)/);
        if (spec.startsWith('./')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      }
    };
    visit(join(providersDir, 'index.ts'));
    expect(seen.size).toBeGreaterThan(2);
    // The SDK modules do import their SDK: the guard above would notice if index.ts loaded them.
    expect(runtimeImports(join(providersDir, 'anthropic.ts'))).toContain('@anthropic-ai/sdk');
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
    expect(provider.model).toBe('claude-sonnet-4-5');
    expect(provider.label).toBe('anthropic claude-sonnet-4-5');
  });
});
