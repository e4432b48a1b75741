#!/usr/bin/env node
// The launcher: imports the bundled CLI (npm run build) so start-up never compiles TypeScript.
import { main } from '../dist/bundle/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`chatkeep: unexpected failure: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
