import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * This package's version, read from package.json. The compiled file sits one directory deeper
 * (`dist/src/repl`) than the source (`src/repl`), so walk up until chatkeep's package.json.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'chatkeep' && typeof pkg.version === 'string') return (cached = pkg.version);
    } catch {
      // not at this depth: try the next one
    }
  }
  return (cached = '0.0.0');
}
