/**
 * What `npm pack` ships (docs/design.md §21): only what runs, the CLI able to run on its dependencies
 * alone, and the library's entries needing nothing but its dependencies and optional peers.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  scripts: Record<string, string>;
};

/**
 * A module's imports: relative files and bare package names (static, `export … from`, dynamic with
 * a literal, as the CLI's bundle calls its launcher's import(), `dynamicImport`, and CommonJS's
 * `require` and `require.resolve` of a literal: the launcher's way to the bundle).
 */
function importsOf(file: string): { files: string[]; packages: string[] } {
  // Comment lines left out: bundled packages' JSDoc writes `import("./x").Type`.
  const text = readFileSync(join(root, file), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join('\n');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\b(?:import|dynamicImport)\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  const files: string[] = [];
  const packages: string[] = [];
  for (const spec of specs) {
    if (spec.startsWith('.')) files.push(normalize(join(dirname(file), spec)));
    else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return { files, packages };
}

/** Every file reachable from `entries` by relative imports, and the packages they import. */
function reach(entries: readonly string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(m?js|cjs)$/.test(file)) continue;
    const found = importsOf(file);
    for (const p of found.packages) packages.add(p);
    queue.push(...found.files);
  }
  return { files, packages };
}

describe('the package', () => {
  let shipped: Set<string>;

  beforeAll(() => {
    // --ignore-scripts: prepack would rebuild dist/ under the tests that use it.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
    shipped = new Set(result.files.map((f) => f.path));
    // npm walks the package's tree: 4 s alone, near the 30 s default when the whole suite runs beside it.
  }, 120_000);

  it('ships the CLI, the library with its types, and the schemas, and nothing of the tests, benches or torture', () => {
    for (const file of ['bin/chatkeep.js', 'bin/package.json', 'dist/bundle/cli.cjs', 'dist/bundle/cached-script.cjs', 'dist/src/index.js', 'dist/src/index.d.ts', 'schema/session.validate.mjs', 'schema/export.schema.json', 'package.json', 'README.md']) {
      expect(shipped.has(file), file).toBe(true);
    }
    const strays = [...shipped].filter((f) => /^dist\/(test|bench|torture)\/|\.test\.|\.map$|tsbuildinfo|^src\/|^test\/|^scripts\//.test(f));
    expect(strays).toEqual([]);
    // The CLI's own sources run from the bundle only; the library never loads them.
    expect([...shipped].filter((f) => /^dist\/src\/cli(\/|\.)/.test(f))).toEqual([]);
  });

  it('has no install script: a program installing chatkeep is not asked to trust one', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[script], script).toBeUndefined();
  });

  it('ships every file the CLI reaches, which finds nothing in node_modules but its dependencies', () => {
    const cli = reach(Object.values(pkg.bin).map((f) => normalize(f)));
    expect([...cli.files].filter((f) => !shipped.has(f))).toEqual([]);
    expect(cli.files.has('dist/bundle/cli.cjs')).toBe(true);
    expect(cli.files.has('dist/bundle/vendor/pg.mjs')).toBe(true);
    // readline-sync is found by require.resolve (its helper scripts lie beside it), not imported.
    expect([...cli.packages].filter((p) => !(p in pkg.dependencies))).toEqual([]);
  });

  it('ships every file the library entries reach, which import only dependencies and optional peers', () => {
    const entries = Object.values(pkg.exports)
      .flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))
      .filter((f) => f.endsWith('.js'))
      .map((f) => normalize(f));
    expect(entries).toContain('dist/src/index.js');
    const library = reach(entries);
    expect([...library.files].filter((f) => !shipped.has(f))).toEqual([]);
    // The providers run from the CLI's bundle alone: none of src/providers/ ships. What the REPL
    // component shows of models (costs, context windows, provider names) is in src/models/.
    expect([...shipped].filter((f) => f.startsWith('dist/src/providers/'))).toEqual([]);
    expect([...shipped].filter((f) => f.startsWith('dist/src/models/')).length).toBeGreaterThan(0);
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})]);
    expect([...library.packages].filter((p) => !allowed.has(p))).toEqual([]);
    for (const peer of Object.keys(pkg.peerDependencies ?? {})) expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
  });

  it('ships a declaration for each module it ships, and none for a module it leaves out', () => {
    const declarations = [...shipped].filter((f) => /\.d\.c?ts$/.test(f));
    expect(declarations.length).toBeGreaterThan(50);
    expect(declarations.filter((f) => !shipped.has(f.replace(/\.d\.ts$/, '.js').replace(/\.d\.cts$/, '.cjs')))).toEqual([]);
    // And every declaration an entry's types reach, so a strict host compiles.
    const types = Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [] : [normalize(e.types!)]));
    const reached = new Set<string>();
    for (const queue = [...types]; queue.length > 0; ) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/(?:from|import\()\s*'(\.[^']+)\.js'/g)) queue.push(normalize(join(dirname(file), `${m[1]}.d.ts`)));
    }
    expect([...reached].filter((f) => !shipped.has(f))).toEqual([]);
  });

  it('ships no V8 code cache: one is made for one Node version and is dead weight under any other', () => {
    expect([...shipped].filter((f) => /\.cache$/.test(f))).toEqual([]);
  });

  it('bundles none of its dependencies but chalk and proper-lockfile: the CLI imports them from node_modules, one copy of each', () => {
    // esbuild marks each bundled module with a `// node_modules/NAME/…` comment. chalk and
    // proper-lockfile, which every start loads, are in the CLI's bundle as well (scripts/bundle.mjs,
    // BUNDLED_DEPENDENCIES).
    const bundled = [...shipped].filter((f) => /^dist\/bundle\/.*\.(m?js|cjs)$/.test(f));
    expect(bundled).toContain('dist/bundle/cli.cjs');
    const twice = bundled.flatMap((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      return Object.keys(pkg.dependencies).filter((dep) => text.includes(`// node_modules/${dep}/`)).map((dep) => `${dep} in ${f}`);
    });
    expect(twice).toEqual(['chalk in dist/bundle/cli.cjs', 'proper-lockfile in dist/bundle/cli.cjs']);
  });

  it('lets a CommonJS program require each entry (require(esm), Node 20.19 and later)', () => {
    for (const [subpath, entry] of Object.entries(pkg.exports)) {
      if (typeof entry === 'string') continue;
      const target = entry.require ?? entry.default;
      expect(target, subpath).toBeDefined();
      expect(shipped.has(normalize(target!)), subpath).toBe(true);
    }
  });
});
