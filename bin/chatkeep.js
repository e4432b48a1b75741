#!/usr/bin/env node
// The launcher: runs the bundled CLI (npm run build) so start-up never compiles TypeScript, with
// the V8 code cache the build made for it (scripts/cached-script.cjs). CommonJS (bin/package.json):
// an ES module here would start Node's ES loader, 9–14 ms of CPU that no start needs.
const { runCached } = require('../dist/bundle/cached-script.cjs');

const { main } = runCached(require.resolve('../dist/bundle/cli.cjs'), (specifier) => import(specifier)).exports;
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`chatkeep: unexpected failure: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
