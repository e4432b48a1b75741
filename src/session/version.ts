import { readFile } from 'node:fs/promises';

let cached: Promise<string> | undefined;

/** This package's version, read once from package.json (from `src/` or `dist/src/`). */
export function packageVersion(): Promise<string> {
  cached ??= (async () => {
    for (const rel of ['../../package.json', '../../../package.json']) {
      try {
        const pkg = JSON.parse(await readFile(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'chatkeep' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // try the next place
      }
    }
    return 'unknown';
  })();
  return cached;
}
