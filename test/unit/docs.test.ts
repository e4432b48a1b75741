/**
 * README is a newcomer's page and docs/ holds the reference: this keeps both true to the code.
 * Every option and subcommand of `--help`, every slash command, and every link must be in the
 * docs; a renamed heading or a moved file fails here, not in a reader's browser.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../src/repl/commands/index.js';
import { DB_OPTIONS } from '../../src/cli/db-options.js';
import { DB_SUBCOMMANDS } from '../../src/cli/db/index.js';
import { REPL_OPTIONS } from '../../src/cli/chat-options.js';
import { SESSIONS_SUBCOMMANDS } from '../../src/cli/sessions/index.js';
import { SESSIONS_OPTIONS } from '../../src/cli/sessions/options.js';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const usage = read('docs/usage.md');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');

function anchors(path: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of read(path).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) found.add(anchorOf(heading[1]!));
    // A stable anchor of its own (`<a id="s7"></a>`, docs/design.md), whatever the heading says.
    for (const [, id] of line.matchAll(/<a id="([^"]+)"><\/a>/g)) found.add(id!);
  }
  return found;
}

describe('the documentation', () => {
  it('keeps README a page a newcomer reads in minutes, with the two set-up commands', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('documents every option of chatkeep and of chatkeep sessions', () => {
    const missing = [...Object.keys(REPL_OPTIONS), ...Object.keys(SESSIONS_OPTIONS)].filter((name) => !usage.includes(`--${name}`));
    expect(missing).toEqual([]);
  });

  it('documents every sessions subcommand and every slash command', () => {
    const subcommands = SESSIONS_SUBCOMMANDS.map((s) => s.name).filter((name) => !usage.includes(`sessions ${name}`));
    const slash = builtinCommands.filter((command) => !usage.includes(`/${command.name}`)).map((c) => c.name);
    expect({ subcommands, slash }).toEqual({ subcommands: [], slash: [] });
  });

  it('documents chatkeep db: each subcommand and option in docs/usage.md and the team set-up page', () => {
    const postgres = read('docs/postgres.md');
    const missing = [...DB_SUBCOMMANDS.map((s) => `db ${s.name}`), ...Object.keys(DB_OPTIONS).map((o) => `--${o}`)].filter((w) => !usage.includes(w));
    const unexplained = [...DB_SUBCOMMANDS.map((s) => `db ${s.name}`), '--member', '--print'].filter((w) => !postgres.includes(w));
    expect({ missing, unexplained }).toEqual({ missing: [], unexplained: [] });
  });

  it("gives every folder of the tree a row in docs/development.md's layout, and no row to a folder that is gone", () => {
    const folders = (dir: string): string[] =>
      readdirSync(join(root, dir))
        .filter((name) => !name.startsWith('.') && statSync(join(root, dir, name)).isDirectory())
        .map((name) => (dir === '.' ? name : `${dir}/${name}`));
    const deep = (dir: string): string[] => folders(dir).flatMap((d) => [d, ...deep(d)]);
    // Every folder of src/ has a row; of the rest, each top-level folder and each of test/'s.
    const top = folders('.').filter((d) => !['node_modules', 'dist', 'docs', 'test'].includes(d));
    const wanted = ['src', ...deep('src'), ...top.filter((d) => d !== 'src'), ...folders('test')].map((d) => `${d}/`);
    const layout = read('docs/development.md').split('## Layout')[1] ?? '';
    const rows = [...layout.matchAll(/^\| `([^`]+\/)` \|/gm)].map((m) => m[1]!);
    expect({ missing: wanted.filter((d) => !rows.includes(d)), gone: rows.filter((d) => !wanted.includes(d)) }).toEqual({ missing: [], gone: [] });
  });

  it('has no link to a file or heading that does not exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const path = file ? join(dirname(page), file) : page;
        if (!existsSync(join(root, path))) broken.push(`${page}: ${target}`);
        else if (anchor && path.endsWith('.md') && !anchors(path).has(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
