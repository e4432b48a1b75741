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
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

// Node's fetch parses HTTP with llhttp compiled to WebAssembly. Once a reply has streamed, V8
// recompiles its one huge parsing function with TurboFan on a worker thread (~50 ms of CPU on a
// quiet machine, hundreds under load), and the process cannot exit before that compile ends: a
// one-shot run then spent more time leaving than getting its reply (issue 23 item 8). The
// baseline compiler parses a chat's few kilobytes of HTTP about as fast. Set here, where the code
// caches are both written (the build imports this file) and read: V8 rejects a cache made under
// other flags, and the SDKs would be compiled from source before every first request.
setFlagsFromString('--liftoff-only');

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
