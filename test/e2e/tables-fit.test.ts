/**
 * Tables that fit (docs/design.md §14): every row of `sessions list`, `/sessions`, `sessions trash` and search results
 * fits the terminal at 80 columns and up, measured by display width (CJK, emoji), a fork's
 * lineage included; piped output keeps whole rows. Played into @xterm/headless: no line wraps.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { runPiped, savedChat, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const CJK = '日本語のタイトルとても長い会議の記録'.repeat(3);
const EMOJI = `🙂 ${'a long emoji title that goes on and on '.repeat(3)}`;

/** The listing row of `id` (not a row naming it as a fork's parent). */
const rowOf = (id: string) => (line: string): boolean => line.startsWith(`  ${id} `) || line.startsWith(`* ${id} `);

/** A project (a git work tree on a long branch name) with a CJK title, an emoji title, a fork of it, and a long plain title. */
async function sessionsToList(): Promise<{ home: string; cwd: string; ids: string[]; fork: string }> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-project-');
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  git('init', '-q', '-b', 'feature/a-branch-with-a-rather-long-name');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  const cjk = await savedChat(`searchable words here\n/title ${CJK}\n/quit\n`, { home, cwd });
  const emoji = await savedChat(`more searchable words\n/title ${EMOJI}\n/quit\n`, { home, cwd });
  const fork = await savedChat('searchable in the fork too\n/quit\n', { home, cwd }, ['--fork', emoji]);
  const plain = await savedChat(`searchable once more\n/title ${'plain words '.repeat(12)}\n/quit\n`, { home, cwd });
  return { home, cwd, ids: [cjk, emoji, fork, plain], fork };
}

/** Runs `args` in a pty of `columns` columns; resolves to the lines on screen once it exited, asserting none wrapped. */
async function onScreen(args: string[], where: { home: string; cwd: string }, columns: number): Promise<string[]> {
  const run = spawnPty(args, { ...where, columns });
  expect(await run.exited, run.screen()).toBe(0);
  expect(await run.wrapped()).toEqual([]);
  const lines = await run.visible();
  for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
  return lines;
}

describe('tables that fit the terminal', () => {
  it('sessions list, search and trash keep one line per row at 80 and 140 columns; piped rows are whole', async () => {
    const where = await sessionsToList();
    for (const columns of [80, 140]) {
      const lines = await onScreen(['sessions', 'list'], where, columns);
      // One row per session, each with its ID whole.
      expect(lines).toHaveLength(where.ids.length);
      for (const id of where.ids) expect(lines.filter(rowOf(id))).toHaveLength(1);
      const forkRow = lines.find(rowOf(where.fork))!;
      // Wide enough, the lineage shows (cut like the title); at 80 it gives way to the title.
      if (columns === 140) expect(forkRow).toContain('forked from');
      else expect(forkRow).not.toContain('forked from');
      expect(lines.find(rowOf(where.ids[0]!))).toContain('日本語');

      const found = await onScreen(['sessions', 'search', 'searchable'], where, columns);
      expect(found.filter((line) => /session-\d{8}/.test(line))).toHaveLength(where.ids.length);
      expect(found.filter((line) => /^ {4}\d+ hits? · (user|assistant): /.test(line))).toHaveLength(where.ids.length);
    }

    const piped = await runPiped(['sessions', 'list'], '', where);
    const rows = piped.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(where.ids.length);
    // No width limit: the whole branch, the title cut at 60 columns, and the whole lineage after it.
    expect(rows.find(rowOf(where.fork))).toMatch(/feature\/a-branch-with-a-rather-long-name {2}.* {2}\(forked from session-\S+ at message 2\)$/);
    expect(Math.max(...rows.map((line) => stringWidth(line)))).toBeGreaterThan(140);

    await runPiped(['sessions', 'rm', where.ids[0]!, where.ids[1]!], '', where);
    for (const columns of [80, 140]) {
      const trash = await onScreen(['sessions', 'trash'], where, columns);
      expect(trash.filter((line) => line.startsWith('session-'))).toHaveLength(2);
    }
  });

  it('/sessions keeps one line per row inside the chat at 80 columns', async () => {
    const where = await sessionsToList();
    const { run } = await startAtPrompt([], { ...where, columns: 80 });
    await run.say('/sessions', '(/sessions --all');
    await run.say('/sessions searchable', '(/load ID to switch)');
    expect(await run.quit()).toBe(0);
    const lines = await run.visible();
    const wrapped = new Set(await run.wrapped());
    for (const id of where.ids) {
      const rows = [...lines.keys()].filter((i) => rowOf(id)(lines[i]!));
      expect(rows).toHaveLength(2);
      // Neither the row nor its search hit line runs over into the next line.
      for (const i of rows) expect([i + 1, i + 2].filter((next) => wrapped.has(next)), lines.slice(i, i + 3).join('\n')).toEqual([]);
    }
  });
});
