// The CLI bundle's two build steps for its code cache (scripts/bundle.mjs): its `import()`s given
// to the launcher, and the start whose compiled code the cache keeps.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The bundle's text with each `import(…)` (of Node's built-ins, the vendor/ files and packages
 * in node_modules) calling `dynamicImport(…)`, the launcher's import() (scripts/cached-script.cjs):
 * a script compiled with a code cache has none of its own. Found by parsing, so that a string
 * or a comment that reads `import(` is left as it is.
 */
export function launchedImports(text) {
  const source = ts.createSourceFile('cli.cjs', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const at = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) at.push(node.expression.getStart(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const start of at.sort((a, b) => b - a)) out = `${out.slice(0, start)}dynamicImport${out.slice(start + 'import'.length)}`;
  return out;
}

/**
 * Starts the built CLI once as the bench and a person do (a new session on the file store, the
 * prompt, one message to the echo provider, `/quit`) and writes the code cache of all it compiled
 * on the way: a cache of the bundle alone, compiled before it runs, holds only its top level (281
 * kB against 527 kB, and 15 ms more CPU a start). The message puts the reply's and the leaving's
 * code in it too (648 kB): with the prompt and `/quit` only, a one-shot run took ~20 ms from its
 * reply's last byte to its exit, ~16 ms with it (docs/internals.md, "Leaving with the bundle's
 * code cache"). The cache serves the Node that made it, under the same V8 flags.
 */
export function trainCodeCache(bundleDir) {
  const scratch = mkdtempSync(join(tmpdir(), 'chatkeep-code-cache-'));
  // Beside the bundle, as the launcher is: its import() finds packages from there.
  const starter = join(bundleDir, 'code-cache-start.cjs');
  try {
    const cwd = join(scratch, 'project');
    mkdirSync(cwd);
    const cli = join(bundleDir, 'cli.cjs');
    writeFileSync(starter, [
      "const { runCached, writeCache } = require('./cached-script.cjs');",
      `const { script, exports: cli } = runCached(${JSON.stringify(cli)}, (specifier) => import(specifier));`,
      `process.on('exit', () => writeCache(${JSON.stringify(cli)}, script));`,
      `cli.main(['--provider', 'echo', '--autosave', 'off']).then((code) => { process.exitCode = code; });`,
    ].join('\n'));
    // None of the builder's own settings: a CHATKEEP_STORE there would have the start open a
    // session on that store (a team's server, say).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CHATKEEP_')));
    const run = spawnSync(process.execPath, [starter], {
      cwd,
      input: 'hello\n/quit\n',
      env: { ...env, CHATKEEP_HOME: join(scratch, 'home'), NO_COLOR: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`The start that makes the CLI's code cache failed (${run.status}): ${run.stderr}`);
  } finally {
    rmSync(starter, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
