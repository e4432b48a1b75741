/**
 * The end-to-end tests run the real launcher, which imports `dist/`. Build it once per test
 * run, unless it is already newer than every source file (so unit-only runs stay quick): the
 * same check `npm start` makes, in scripts/build-if-stale.mjs.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** vitest globalSetup: builds (tsc, then the CLI bundle) when dist is missing or stale. */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-if-stale.mjs', import.meta.url))], { stdio: 'inherit' });
}
