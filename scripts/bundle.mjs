// Bundles the CLI into one file, dist/bundle/cli.js, so that start-up loads one module instead
// of ~100 (module loading was most of the time to the first prompt). The library (the
// package's main export) stays tsc's output in dist/src/.
//
// Packages loaded later and only sometimes (the provider SDKs when one is chosen, cron once
// the prompt is up) are each bundled into their own file under dist/bundle/vendor/, which the
// CLI imports lazily: one file instead of the SDK's 150–300 modules resolved from
// node_modules. Measured on Node 20: `import('openai')` 65 ms → 10 ms, `@anthropic-ai/sdk`
// 130 ms → 35 ms, `cron` (with luxon) 70 ms → 15 ms.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });

/**
 * What the CLI imports → its file under dist/bundle/vendor/, and that file's contents. The
 * anthropic provider imports only the SDK's base client and its Messages resource: both come
 * from one file, tree-shaken to what they use (340 kB instead of the whole SDK's 1.3 MB).
 */
const VENDORED = {
  openai: 'openai',
  '@anthropic-ai/sdk/client': 'anthropic-sdk',
  '@anthropic-ai/sdk/resources/messages': 'anthropic-sdk',
  cron: 'cron',
};
const VENDOR_FILES = {
  openai: "export { default } from 'openai';",
  'anthropic-sdk': "export { BaseAnthropic } from '@anthropic-ai/sdk/client'; export { Messages } from '@anthropic-ai/sdk/resources/messages';",
  // CommonJS: its exports are the namespace's default.
  cron: "import * as cron from 'cron'; export default cron;",
};

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies (proper-lockfile, cron) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __chatkeepRequire } from 'node:module'; const require = __chatkeepRequire(import.meta.url);" },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  outdir: 'dist/bundle',
  // readline-sync finds its helper scripts next to its own files; ajv is only a fallback.
  external: ['readline-sync', 'node-pty', 'ajv'],
  plugins: [
    {
      name: 'vendored',
      setup(b) {
        const names = Object.keys(VENDORED).map((n) => n.replace(/[/.]/g, '\\$&'));
        b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
          path: `./vendor/${VENDORED[args.path]}.js`,
          external: true,
        }));
      },
    },
  ],
});

for (const [file, contents] of Object.entries(VENDOR_FILES)) {
  await build({
    ...common,
    stdin: { contents, resolveDir: root, sourcefile: `vendor-${file}.js` },
    outfile: `dist/bundle/vendor/${file}.js`,
  });
}
