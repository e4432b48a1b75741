/**
 * The end-to-end tests run the real launcher, which imports `dist/`. Build it once per test
 * run, unless it is already newer than every source file (so unit-only runs stay quick).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** vitest globalSetup: builds (tsc, then the CLI bundle) when dist is missing or stale. */
export default function setup(): void {
  const built = join(root, 'dist', 'bundle', 'cli.js');
  const sources = Math.max(
    ...['src', 'commands'].map((d) => newestSource(join(root, d))),
    statSync(join(root, 'package.json')).mtimeMs,
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
    statSync(join(root, 'scripts', 'bundle.mjs')).mtimeMs,
  );
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  // The package's own build script, so its steps (tsc, then the CLI bundle) live in one place.
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
}
