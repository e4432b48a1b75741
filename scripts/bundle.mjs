// Bundles the CLI into one file, dist/bundle/cli.js, so that start-up loads one module instead
// of ~100 (module loading was most of the time to the first prompt). Packages used only later
// and only sometimes (the provider SDKs, cron and the Markdown renderer once the prompt is up,
// ajv as a fallback) stay external and load from node_modules when needed. The library (the
// package's main export) stays tsc's output in dist/src/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outdir: 'dist/bundle',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // readline-sync finds its helper scripts next to its own files.
  external: ['readline-sync', 'node-pty', '@anthropic-ai/sdk', 'openai', 'cron', 'ajv', 'marked', 'marked-terminal', 'string-width'],
  // CommonJS dependencies (proper-lockfile) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __chatkeepRequire } from 'node:module'; const require = __chatkeepRequire(import.meta.url);" },
  logLevel: 'warning',
});
