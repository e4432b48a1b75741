/**
 * The store seam, as the imports draw it (docs/design.md §2, §7): a store keeps a session's parts and
 * never interprets them (what it keeps beside them it gets from the model's `Interpreter`), and
 * the model knows no store. Read from the source files' own import lines, static and dynamic.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The files a file imports (type-only imports left out: they vanish from the built code). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...[...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/import\('(\.[^']+)'\)/g)].map((m) => m[1]!),
  ];
  return found.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
}

/** Every file `file` reaches through its imports. */
function reached(file: string): Set<string> {
  const seen = new Set<string>();
  const todo = [file];
  while (todo.length > 0) {
    for (const next of imports(todo.pop()!)) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return seen;
}

const rel = (path: string): string => relative(ROOT, path);

describe('the store seam', () => {
  it('no store reaches the model’s interpreter of events (replay, reading) or the live session and manager', () => {
    const interpreting = /src\/session\/(replay|reading|session|manager)\.ts$/;
    const leaks = sources(join(ROOT, 'src/store'))
      .filter((file) => !file.endsWith('src/store/open.ts')) // openSessions assembles the manager over a store
      .flatMap((file) => [...reached(file)].filter((target) => interpreting.test(target)).map((target) => `${rel(file)} -> ${rel(target)}`));
    expect(leaks).toEqual([]);
  });

  it('the model imports no store', () => {
    const leaks = sources(join(ROOT, 'src/session')).flatMap((file) =>
      imports(file).filter((target) => target.includes('/src/store/')).map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(leaks).toEqual([]);
  });
});
