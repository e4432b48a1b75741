import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundleDir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));

describe('the CLI bundle', () => {
  const cli = readFileSync(`${bundleDir}cli.js`, 'utf8');

  it('loads the provider SDKs and cron from their own bundled files, and only when needed', () => {
    const lazy = [...cli.matchAll(/import\("(\.\/vendor\/[^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(lazy)).toEqual(new Set(['./vendor/openai.js', './vendor/anthropic-sdk.js', './vendor/cron.js']));
    for (const file of lazy) expect(existsSync(`${bundleDir}${file}`), file).toBe(true);
    // Neither a static import of those files nor a lookup of the packages in node_modules.
    expect(cli).not.toMatch(/from\s*"\.\/vendor\//);
    expect(cli).not.toMatch(/(from\s*|import\()"(openai|@anthropic-ai\/sdk[^"]*|cron)"/);
  });
});
