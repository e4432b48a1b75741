import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundleDir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the CLI bundle', () => {
  const cli = readFileSync(`${bundleDir}cli.cjs`, 'utf8');

  it('loads the provider SDKs from their own vendored files, and only when needed', () => {
    const vendored = [...cli.matchAll(/loadVendor\)?\(new URL\("(\.\/vendor\/[^"]+)"/g)].map((m) => m[1]);
    expect(new Set(vendored)).toEqual(new Set(['./vendor/openai.cjs', './vendor/anthropic-sdk.cjs']));
    // Neither a static import of those packages nor a lookup of them in node_modules.
    expect(cli).not.toMatch(/(from\s*|import\(\s*|dynamicImport\(\s*|require\(\s*)"(openai|@anthropic-ai\/sdk[^"]*)"/);
  });

  it('imports no package at start: each one loads on the path that needs it', () => {
    // A top-level import of an external package is evaluated at every start: a Markdown
    // renderer, a sanitizer and a highlighter there cost 70 ms before the first prompt. The
    // colours, which every start needs, are bundled: chalk's four modules from node_modules
    // cost twice what they cost as part of the bundle. The bundle is CommonJS (run with its code
    // cache, scripts/cached-script.cjs): no import statement, and a require() only of Node's own.
    expect(cli).not.toMatch(/^import\s/m);
    const required = [...cli.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!).filter((name) => !name.startsWith('node:') && !builtinModules.includes(name));
    expect(required).toEqual([]);
    expect(cli).toContain('// node_modules/chalk/source/index.js');
  });

  it('leaves node-postgres out of the bundle: its own file is imported only when a PostgreSQL store is chosen', () => {
    expect(cli).toMatch(/dynamicImport\(\s*"\.\/vendor\/pg\.mjs"\s*\)/);
    expect(cli).not.toMatch(/(from\s*|require\(\s*)"(pg|\.\/vendor\/pg\.mjs)"/);
    expect(cli).not.toContain('class Pool');
  });

  it('carries the packages of one path each in a file of its own, so that it needs none of them installed', () => {
    // What the CLI finds in node_modules: the library's own dependencies, installed with it
    // (imported, or required: CommonJS packages, src/store/file/lock.ts). proper-lockfile, which a
    // new session's lock loads at every start, is required from the bundle's own copy.
    const fromNodeModules = new Set([...cli.matchAll(/(?:\bdynamicImport\(\s*|\bcreateRequire\)\(importMetaUrl\)\(\s*)"((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]+)?)"/gm)].map((m) => m[1]!).filter((name) => !name.startsWith('node:')));
    const dependencies = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    expect([...fromNodeModules].filter((name) => !dependencies.includes(name))).toEqual([]);
    expect(cli).toContain('// node_modules/proper-lockfile/lib/lockfile.js');
    expect(cli).toMatch(/lockfileModule \?\?= typeof require === "function" \? require_proper_lockfile\(\)/);
    const split = [...cli.matchAll(/dynamicImport\(\s*"\.\/vendor\/([^"]+\.mjs)"\s*\)/g)].map((m) => m[1]);
    expect(new Set(split)).toEqual(
      new Set(['marked.mjs', 'marked-terminal.mjs', 'cli-highlight.mjs', 'highlight-js-lib-common.mjs', 'sanitize-html.mjs', 'inquirer-core.mjs', 'pg.mjs']),
    );
    for (const file of split) expect(existsSync(`${bundleDir}vendor/${file}`), file).toBe(true);
  });

  it('makes a V8 code cache for the CLI and each vendored file that this Node accepts under the CLI\'s V8 flags', () => {
    // For this checkout's Node only: package.json `files` leaves the caches out of the tarball.
    // A child process runs each file as the launcher and the CLI do (scripts/cached-script.cjs)
    // and reports whether V8 took its cache, and whether loading changed V8's flags: a flag set
    // at run time makes V8 reject every cache made before (these, and Node's own for its
    // modules: fetch's, ~16 ms per first request).
    const files = ['vendor/openai.cjs', 'vendor/anthropic-sdk.cjs', 'cli.cjs'];
    for (const file of files) expect(existsSync(`${bundleDir}${file}.cache`), file).toBe(true);
    const check = `
      const { cachedDataVersionTag } = require('node:v8');
      const tag = cachedDataVersionTag();
      const { runCached } = require(${JSON.stringify(join(bundleDir, 'cached-script.cjs'))});
      const rejected = ${JSON.stringify(files)}.filter((file) => runCached(${JSON.stringify(bundleDir)} + file, (s) => import(s)).script.cachedDataRejected !== false);
      if (cachedDataVersionTag() !== tag) throw new Error('V8 flags changed at run time');
      process.stdout.write(JSON.stringify(rejected));`;
    const out = execFileSync(process.execPath, ['-e', check], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([]);
  });

  it("makes its code cache from a start of its own, whatever store the builder's CHATKEEP_STORE names", async () => {
    // A copy of the bundle beside it (its import()s find node_modules from there), so that the
    // cache the other tests read is not rewritten under them. A server nobody listens on: a start
    // that opened the builder's store would fail to connect, and the build with it.
    const copy = mkdtempSync(join(root, 'dist', 'bundle-cache-'));
    const { trainCodeCache } = (await import(join(root, 'scripts', 'cli-code-cache.mjs'))) as { trainCodeCache: (dir: string) => void };
    const was = process.env.CHATKEEP_STORE;
    try {
      cpSync(bundleDir, copy, { recursive: true });
      rmSync(join(copy, 'cli.cjs.cache'));
      process.env.CHATKEEP_STORE = 'postgres://nobody@127.0.0.1:1/nothing';
      trainCodeCache(copy);
      expect(existsSync(join(copy, 'cli.cjs.cache'))).toBe(true);
      expect(readdirSync(copy).filter((name) => name.startsWith('code-cache-start'))).toEqual([]);
    } finally {
      if (was === undefined) delete process.env.CHATKEEP_STORE;
      else process.env.CHATKEEP_STORE = was;
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
