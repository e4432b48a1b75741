// Loads a vendored package (dist/bundle/vendor/NAME.cjs, one CommonJS file made by
// scripts/bundle.mjs) with the V8 code cache made for it at build time (NAME.cjs.cache), so
// that the first request does not wait for the SDK's source to be compiled: measured on Node
// 20, the anthropic SDK 16–32 ms → 5–9 ms, openai 9–19 ms → 4–9 ms. V8 checks the cache
// against the source and its own version and flags; a missing or rejected cache only means the
// source is compiled as usual. Part of the CLI bundle (esbuild inlines it); not of the library.
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const loaded = new Map();

/** The exports of the vendored file at `url` (evaluated once per process). */
export function loadVendor(url) {
  const file = fileURLToPath(url);
  if (!loaded.has(file)) loaded.set(file, run(file, readCache(file)).exports);
  return loaded.get(file);
}

/** Build time: evaluates the file once and writes the code cache of what that compiled. */
export function writeVendorCache(file) {
  const { script } = run(file, undefined);
  writeFileSync(`${file}.cache`, script.createCachedData());
}

function readCache(file) {
  try {
    return readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
}

function run(file, cachedData) {
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { script, exports: module.exports };
}
