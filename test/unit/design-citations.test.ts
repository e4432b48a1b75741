/**
 * The design the code cites is in the repository: every `docs/design.md §N` in the code and the
 * docs names a section that exists there, and nothing cites what a reader of the repository
 * cannot open (an issue number, a design or style document kept elsewhere).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const self = relative(root, import.meta.filename);

/** The code: every source, test, bench, torture and script file (fixtures are other tools' data). */
function codeFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return path === 'test/fixtures' ? [] : codeFiles(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(name) && path !== self ? [path] : [];
  });
}

const code = ['src', 'test', 'bench', 'torture', 'scripts', 'examples'].flatMap(codeFiles);
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Each `## §N title` of docs/design.md, with the anchor just above it. */
function designSections(): { number: number; anchored: boolean }[] {
  const lines = read('docs/design.md').split('\n');
  return lines.flatMap((line, i) => {
    const heading = /^## §(\d+) /.exec(line);
    return heading ? [{ number: Number(heading[1]), anchored: lines[i - 1] === `<a id="s${heading[1]}"></a>` }] : [];
  });
}

/** `file:line: text` for each line of `files` that `find` says is wrong. */
function offending(files: readonly string[], find: (line: string) => string | undefined): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => {
        const what = find(line);
        return what === undefined ? [] : [`${file}:${i + 1}: ${what}`];
      }),
  );
}

/** The section numbers a line cites: `docs/design.md §11, §12` gives 11 and 12. */
function citedSections(line: string): number[] {
  return [...line.matchAll(/docs\/design\.md((?:(?:,| and)? ?§\d+)+)/g)].flatMap((m) => [...m[1]!.matchAll(/§(\d+)/g)].map((n) => Number(n[1])));
}

describe('docs/design.md and the citations of it', () => {
  it('numbers its sections 1, 2, 3… each under a stable anchor of its own (<a id="sN">)', () => {
    const sections = designSections();
    expect(sections.length).toBeGreaterThan(10);
    expect(sections.map((s) => s.number)).toEqual(sections.map((_, i) => i + 1));
    expect(sections.filter((s) => !s.anchored).map((s) => s.number)).toEqual([]);
  });

  it('holds every section the code and the docs cite', () => {
    const numbers = new Set(designSections().map((s) => s.number));
    const missing = offending([...code, ...docs], (line) => {
      const gone = citedSections(line).filter((n) => !numbers.has(n));
      return gone.length ? `cites §${gone.join(', §')}` : undefined;
    });
    expect(missing).toEqual([]);
  });

  it('is what the code cites: no issue numbers, no design or style document outside the repository', () => {
    const elsewhere = (line: string): string | undefined => /\bDESIGN(\.md)? ?§|\bSTYLE(\.md)?[:"]/.exec(line)?.[0];
    const outside = offending(code, (line) => /\bissues? #?\d+/i.exec(line)?.[0] ?? elsewhere(line));
    expect(outside).toEqual([]);
    expect(offending(docs, elsewhere)).toEqual([]);
  });
});
