'use strict';
// Runs a CommonJS file made by scripts/bundle.mjs (the CLI, dist/bundle/cli.cjs, and each vendored
// SDK, dist/bundle/vendor/NAME.cjs) with the V8 code cache made for it at build time (FILE.cache),
// so that a start does not wait for the source to be compiled: measured on Node 20, the anthropic
// SDK 16–32 ms → 5–9 ms, openai 9–19 ms → 4–9 ms, the CLI to its first prompt ~30 ms of CPU
// (docs/internals.md, "Start to first prompt, by CPU"). Node 20 has no code cache for its own
// loaders' modules, hence a script of our own. V8 checks the cache against the source and its
// own version and flags; a missing or rejected cache only means the source is compiled as usual.
// The launcher (bin/chatkeep.js) requires it from dist/bundle/, where the build copies it; the
// CLI bundle has it inlined for the SDKs. Not part of the library.
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

/**
 * A CommonJS module's wrapper, with one more argument: `import()` written in a script compiled
 * here fails ("A dynamic import callback was not specified"), so the CLI's bundle calls the
 * launcher's instead (scripts/bundle.mjs rewrites each `import(…)` to `dynamicImport(…)`).
 */
const wrap = (source) => `(function (exports, require, module, __filename, __dirname, dynamicImport) {${source}\n})`;

/**
 * Runs `file` once: its exports, and the script (whose code cache the build writes). `importer` is
 * an `import()` of the caller's, given specifiers relative to `file` already resolved.
 */
function runCached(file, importer) {
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData: readCache(file) });
  const module = { exports: {} };
  const base = pathToFileURL(file);
  const dynamicImport = importer && ((specifier) => importer(specifier.startsWith('.') ? new URL(specifier, base).href : specifier));
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), dynamicImport);
  return { script, exports: module.exports };
}

const loaded = new Map();

/** The exports of the vendored file at `url` (evaluated once per process). */
function loadVendor(url) {
  const file = fileURLToPath(url);
  if (!loaded.has(file)) loaded.set(file, runCached(file).exports);
  return loaded.get(file);
}

/** Build time: `script`'s code cache, of everything compiled in it so far, beside its file. */
function writeCache(file, script) {
  writeFileSync(`${file}.cache`, script.createCachedData());
}

function readCache(file) {
  try {
    return readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
}

module.exports = { runCached, loadVendor, writeCache };
