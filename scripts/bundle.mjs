// Bundles the CLI into one file, dist/bundle/cli.cjs, so that start-up loads one module instead
// of ~100 (module loading was most of the time to the first prompt). The library (the
// package's main export) stays tsc's output in dist/src/. The bundle is CommonJS, run by the
// launcher (bin/chatkeep.js) with a V8 code cache made at build time by a start of its own
// (scripts/cli-code-cache.mjs): the ES loader and compiling the bundle were nearly half of a
// start's CPU above a bare Node's.
//
// The package's own dependencies are not bundled: the CLI imports them from node_modules, where
// `npm install chatkeep` puts them for the library anyway (one copy of each in the tarball). The
// exceptions are chalk and proper-lockfile, which every start loads (BUNDLED_DEPENDENCIES below).
// Packages loaded later and only sometimes (the provider SDKs when one is chosen) are each bundled into their own CommonJS file under dist/bundle/vendor/,
// with a V8 code cache beside it, and loaded by scripts/cached-script.cjs when the CLI first
// imports them: one file instead of the SDK's 150–300 modules resolved from node_modules, and
// little left to compile. Measured on Node 20: `import('openai')` 65 ms → 4–9 ms,
// `@anthropic-ai/sdk` 130 ms → 5–9 ms. The code caches are tied to the Node that made them, so
// they serve this checkout only: package.json `files` leaves them out of the tarball.
// The Markdown renderer (marked, marked-terminal, cli-highlight) loads once the prompt is up, and
// the HTML export's (marked, sanitize-html, highlight.js) when one is written, each from its own
// file under dist/bundle/vendor/ (SPLIT_OUT below); string-width stays in node_modules.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchedImports, trainCodeCache } from './cli-code-cache.mjs';
import cachedScript from './cached-script.cjs';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });

/**
 * The vendored files and what each holds. The anthropic provider imports only the SDK's base
 * client and its Messages resource: tree-shaken to what they use (340 kB instead of the whole
 * SDK's 1.3 MB).
 */
const VENDOR_FILES = {
  openai: "export { default } from 'openai';",
  'anthropic-sdk': "export { BaseAnthropic } from '@anthropic-ai/sdk/client'; export { Messages } from '@anthropic-ai/sdk/resources/messages';",
};

/** What the CLI imports → the vendored file, and the module the CLI sees in its place. */
const VENDORED = {
  openai: ['openai', 'export default vendored.default;'],
  '@anthropic-ai/sdk/client': ['anthropic-sdk', 'export const BaseAnthropic = vendored.BaseAnthropic;'],
  '@anthropic-ai/sdk/resources/messages': ['anthropic-sdk', 'export const Messages = vendored.Messages;'],
};

const DEPENDENCIES = Object.keys(JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).dependencies);
const DEPENDENCY_FILTER = new RegExp(`^(${DEPENDENCIES.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})(/|$)`);

/**
 * The package's dependencies (and their subpaths) stay imports of node_modules, where they are
 * installed beside the CLI, except those named in `inside`. Only the copy at the top of
 * node_modules: a bundled package that needs another major version of one (cli-highlight's
 * chalk 4) gets its nested copy bundled, since at run time the bare name would find chatkeep's.
 */
const keepOutside = (inside = []) => ({
  name: 'dependencies-outside',
  setup: (b) =>
    b.onResolve({ filter: DEPENDENCY_FILTER }, async (args) => {
      if (args.pluginData === 'dependencies-outside') return undefined;
      const name = DEPENDENCY_FILTER.exec(args.path)[1];
      if (inside.includes(name)) return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'dependencies-outside' });
      return found.path.startsWith(`${root}node_modules/${name}/`) ? { path: args.path, external: true } : found;
    }),
});
const dependenciesOutside = keepOutside();

/**
 * The dependencies bundled into cli.cjs all the same, the two every start loads: chalk (the
 * screen's colours) and proper-lockfile (a new session's lock, src/store/file/lock.ts). From
 * node_modules chalk is four ES modules, each resolved, read, compiled and linked apart: 11–14 ms
 * of CPU where the same code as one file costs 5–6 ms; proper-lockfile and its dependencies ten
 * CommonJS files, 10–12 ms where in the bundle, with its code cache, they cost 4–5 ms
 * (docs/internals.md, "Start to first prompt, by CPU"). Their 16 and 51 kB are then in the tarball
 * twice: the library, and the Markdown renderer loaded after the prompt, load them from node_modules.
 */
const BUNDLED_DEPENDENCIES = ['chalk', 'proper-lockfile'];

/**
 * Packages the CLI loads on one path only (the Markdown renderer once the prompt is up, the
 * session browser, the HTML export, node-postgres for a server store), each bundled into its own
 * ES module under dist/bundle/vendor/ that the CLI imports by relative path when that path runs.
 * So the CLI needs none of them in node_modules, and they are devDependencies: a program that
 * installs chatkeep for its library does not install them (docs/design.md §21). ES modules (not
 * the CommonJS files above) keep each package's import semantics as the code sees them from
 * node_modules: a CommonJS package's `module.exports` is the default export.
 */
const SPLIT_OUT = {
  marked: "export * from 'marked';",
  'marked-terminal': "export { markedTerminal } from 'marked-terminal';",
  'cli-highlight': "export { highlight, supportsLanguage, DEFAULT_THEME } from 'cli-highlight';",
  'highlight.js/lib/common': "export { default } from 'highlight.js/lib/common';",
  'sanitize-html': "export { default } from 'sanitize-html';",
  '@inquirer/core': "export * from '@inquirer/core';",
  pg: "export { default } from 'pg';",
};

/** The file under dist/bundle/vendor/ of a split-out package. */
const splitFile = (name) => `${name.replace(/[@/.]/g, (c) => (c === '@' ? '' : '-'))}.mjs`;

const SPLIT_FILTER = new RegExp(`^(${Object.keys(SPLIT_OUT).map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);

/**
 * Imports of split-out packages left to their own files at `dir` (relative to the importing
 * file), except `self`, the package the file being built holds.
 */
const splitOutTo = (dir, self) => ({
  name: 'split-out',
  setup: (b) => b.onResolve({ filter: SPLIT_FILTER }, (args) => (args.path === self ? undefined : { path: `${dir}${splitFile(args.path)}`, external: true })),
});

/** ES modules that bundle CommonJS code get a `require` of their own. */
const REQUIRE_BANNER = { js: "import { createRequire as __chatkeepRequire } from 'node:module'; const require = __chatkeepRequire(import.meta.url);" };

const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };

/**
 * The dependencies load from node_modules (readline-sync also finds its helper scripts next
 * to its own files there). What SPLIT_OUT names loads from the bundle's own vendor/ files,
 * only on its path: kept out of the bundle's bytes.
 */
const cliPlugins = [
  keepOutside(BUNDLED_DEPENDENCIES),
  splitOutTo('./vendor/'),
  {
    name: 'vendored',
    setup(b) {
      const names = Object.keys(VENDORED).map((n) => n.replace(/[/.]/g, '\\$&'));
      b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'vendored' }));
      // Inside the bundle, a dynamic import() of these runs this module then: the file loads only when needed.
      b.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => {
        const [file, exports] = VENDORED[args.path];
        return {
          contents: [
            `import { loadVendor } from ${JSON.stringify(fileURLToPath(new URL('./cached-script.cjs', import.meta.url)))};`,
            `const vendored = loadVendor(new URL('./vendor/${file}.cjs', import.meta.url));`,
            exports,
          ].join('\n'),
          resolveDir: root,
          loader: 'js',
        };
      });
    },
  },
];

const cli = await build({
  ...common,
  format: 'cjs',
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/bundle/cli.cjs',
  write: false,
  // Written as ES modules: their `import.meta.url` is the bundle's own file's.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "'use strict';\nconst importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: cliPlugins,
});
mkdirSync(`${root}/dist/bundle`, { recursive: true });
writeFileSync(`${root}/dist/bundle/cli.cjs`, launchedImports(cli.outputFiles[0].text));
copyFileSync(`${root}/scripts/cached-script.cjs`, `${root}/dist/bundle/cached-script.cjs`);
// The import's reading thread (src/import/readers.ts) is started from its own file beside cli.cjs:
// an ES module, as Node runs a worker's file itself. Bundled CommonJS code calls require() for Node's built-ins.
await build({ ...common, format: 'esm', entryPoints: { 'read-worker': 'src/import/read-worker.ts' }, outdir: 'dist/bundle', banner: REQUIRE_BANNER, plugins: cliPlugins });

for (const [file, contents] of Object.entries(VENDOR_FILES)) {
  const outfile = `${root}/dist/bundle/vendor/${file}.cjs`;
  await build({ ...common, format: 'cjs', stdin: { contents, resolveDir: root, sourcefile: `vendor-${file}.js` }, outfile, plugins: [dependenciesOutside] });
  // Evaluated once, and the code cache of what that compiled written beside it.
  cachedScript.writeCache(outfile, cachedScript.runCached(outfile).script);
}

for (const [name, contents] of Object.entries(SPLIT_OUT)) {
  await build({
    ...common,
    format: 'esm',
    stdin: { contents, resolveDir: root, sourcefile: `vendor-${splitFile(name)}` },
    outfile: `${root}/dist/bundle/vendor/${splitFile(name)}`,
    // node-postgres's optional native binding is required only by `pg.native`, which chatkeep never uses.
    external: ['pg-native'],
    // One copy of each: marked-terminal's marked and cli-highlight are the files beside it.
    plugins: [dependenciesOutside, splitOutTo('./', name)],
    banner: REQUIRE_BANNER,
  });
}

// Last: the start that makes the CLI's code cache needs every file it loads.
trainCodeCache(`${root}/dist/bundle`);
