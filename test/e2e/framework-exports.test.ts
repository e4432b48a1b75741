import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, { types: string; import: string }>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const FRAMEWORKS = { './openai-agents': '@openai/agents', './langchain': '@langchain/core', './ai-sdk': 'ai' };

/** Every module the file reaches by static imports (relative ones followed), and the packages they name. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, spec] of code.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*'([^']+)'/gm)) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!));
      else packages.add(spec!);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the framework adapters as package subpaths', () => {
  it('are exported as chatkeep/openai-agents, chatkeep/langchain and chatkeep/ai-sdk, built, with their frameworks as optional peers', () => {
    for (const [subpath, framework] of Object.entries(FRAMEWORKS)) {
      expect(existsSync(`${root}${pkg.exports[subpath]!.import}`), subpath).toBe(true);
      expect(existsSync(`${root}${pkg.exports[subpath]!.types}`), subpath).toBe(true);
      expect(pkg.peerDependenciesMeta[framework]).toEqual({ optional: true });
      expect(pkg.peerDependencies[framework]).toBeDefined();
      expect(pkg.devDependencies[framework]).toBeDefined();
      expect(pkg.dependencies[framework]).toBeUndefined();
    }
  });

  it('load with the package name, and neither chatkeep’s library nor its CLI loads them or their frameworks', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "const a = await import('chatkeep/openai-agents'); const l = await import('chatkeep/langchain'); const v = await import('chatkeep/ai-sdk'); console.log(typeof a.openAgentSession, typeof l.openChatHistory, typeof v.openChatStore);"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function function');
    const library = staticGraph(`${root}${pkg.exports['.']!.import}`);
    expect([...library.files].filter((f) => f.includes('/dist/src/frameworks/'))).toEqual([]);
    expect([...library.packages].filter((p) => p.startsWith('@langchain/') || p.startsWith('@openai/agents') || p === 'ai')).toEqual([]);
    const cli = readFileSync(`${root}dist/bundle/cli.cjs`, 'utf8');
    expect(cli).not.toMatch(/@langchain\/|@openai\/agents|from ['"]ai['"]|(?:require|dynamicImport)\(['"]ai['"]\)|src\/frameworks\//);
  });

  it('chatkeep/openai-agents and chatkeep/ai-sdk need nothing of their SDKs at run time (their types only)', () => {
    for (const subpath of ['./openai-agents', './ai-sdk']) {
      const graph = staticGraph(`${root}${pkg.exports[subpath]!.import}`);
      expect([...graph.packages].filter((p) => !p.startsWith('node:')), subpath).toEqual([]);
    }
  });
});
