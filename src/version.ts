import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * This package's version, read once from package.json. The running file may be the source
 * (`src`), tsc's output (`dist/src`) or the bundle (`dist/bundle`), so walk
 * up until chatkeep's package.json. Synchronous: `--version` must not wait on anything.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'chatkeep' && typeof pkg.version === 'string') return (cached = pkg.version);
    } catch {
      // not at this depth: try the next one
    }
  }
  return (cached = 'unknown');
}
