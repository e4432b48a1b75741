/**
 * The session browser at 60, 80 and 120 columns, driven in a pseudo-terminal as a person does:
 * titles that stay readable (the preview and the branch give way first), column headers, forks
 * listed under their parent and folded behind a count (→ opens, ← folds), a fork's preview
 * showing where it parted, what an action said wrapped whole, and why an empty list is empty.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { savedChat, spawnPty, type PtyRun, untilVisible } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** An ID as a whole word: a session made in the same second as another has the other's ID and `-2`. */
const idPattern = (id: string): RegExp => new RegExp(`${id}(?![-\\w])`);
const hasId = (line: string, id: string): boolean => idPattern(id).test(line);

const RIGHT = '\x1b[C';
const LEFT = '\x1b[D';
const DOWN = '\x1b[B';

const until = (run: PtyRun, what: string | RegExp): Promise<string> => untilVisible(run, what, 15_000);

/** The list's part of a screen line (left of the side pane at 120 columns). */
const listPart = (line: string): string => line.split(' │ ')[0]!;

interface Home {
  home: string;
  cwd: string;
  notes: string[];
  root: string;
  forks: string[];
}

/**
 * A project in a git work tree on `master` with three sessions titled "Notes on …" and a
 * conversation of four messages with two forks of it at message 2 (each keeping its title).
 */
async function project(): Promise<Home> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-repo-');
  execFileSync('git', ['init', '-q', '-b', 'master'], { cwd });
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first'], { cwd });
  const where = { home, cwd };
  const notes: string[] = [];
  for (const topic of ['alpha', 'bravo', 'charlie']) notes.push(await savedChat(`about ${topic}\n/title Notes on ${topic}\n/quit\n`, where));
  const root = await savedChat('how do we move?\n/title Plan the move\nand then what?\n/quit\n', where);
  const forks: string[] = [];
  for (const way of ['a side way', 'another way']) forks.push(await savedChat(`${way}\n/quit\n`, where, ['--fork', root, '--at', '2']));
  return { home, cwd, notes, root, forks };
}

/** Every visible line fits the terminal. */
async function fits(run: PtyRun, columns: number): Promise<string[]> {
  const lines = await run.visible();
  for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
  return lines;
}

describe('session browser: rows, headers and families at 60, 80 and 120 columns', () => {
  it('whole titles, headers, a folded family opened with → and folded with ←, a fork’s preview', async () => {
    const { home, cwd, notes, root, forks } = await project();
    for (const [cols, rows] of [[120, 30], [80, 24], [60, 24]] as const) {
        const run = spawnPty(['sessions', 'browse'], { home, cwd, cols, rows });
      await until(run, '· 6 of 6 ·');
      let lines = (await fits(run, cols)).map(listPart);
      // Every "Notes on …" row tells which one it is; the branch is what gave way at 60 columns.
      for (const [i, topic] of ['alpha', 'bravo', 'charlie'].entries()) {
        expect(lines.find((l) => hasId(l, notes[i]!)), `${cols}: ${lines.join('\n')}`).toContain(`Notes on ${topic}`);
      }
      if (cols >= 80) expect(lines.find((l) => hasId(l, notes[0]!))).toContain('master');
      expect(lines[3]).toMatch(/^ {2}ID +age .*title/);
      // The family stands where its newest member does (the top), folded behind its root.
      expect(lines[4]).toMatch(new RegExp(`^› ${root} .*Plan the move +\\+2 forks`));
      for (const fork of forks) expect(lines.join('\n')).not.toMatch(idPattern(fork));

      run.write(RIGHT);
      await until(run, forks[1]!);
      lines = (await fits(run, cols)).map(listPart);
      expect(lines[5]).toMatch(new RegExp(`^ {2}${forks[0]} .*├─ at 2 · Plan the move`));
      expect(lines[6]).toMatch(new RegExp(`^ {2}${forks[1]} .*└─ at 2 · Plan the move`));
      expect(lines[4]).not.toContain('forks');

      // The first fork's preview: the last shared messages, where it parted, its own message.
      run.write(DOWN);
      if (cols < 120) run.write('\x0f');
      const screen = await until(run, 'parted here, after message 2');
      const pane = screen.split('\n').map((l) => (cols >= 120 ? (l.split(' │ ')[1] ?? '') : l));
      const rule = pane.findIndex((l) => l.includes('parted here, after message 2'));
      expect(pane.slice(0, rule).join('\n')).toContain('Echo: how do we move?');
      expect(pane.slice(rule + 1).join('\n')).toContain('› a side way');
      expect(pane.slice(0, rule).join('\n')).not.toContain('and then what?');

      // ← folds the family back, the highlight on its root.
      run.write(LEFT);
      await until(run, new RegExp(`^› ${root} .*\\+2 forks`, 'm'));
      expect((await run.visible()).join('\n')).not.toMatch(idPattern(forks[0]!));
      run.write('\x1b');
      expect(await run.exited).toBe(0);
    }
  }, 120_000);

  it('a search finds forks in every family (a fork whose parent does not match stands alone, saying it is a fork); what an action said and why the list is empty', async () => {
    const { home, cwd, root, forks, notes } = await project();
    let run = spawnPty(['sessions', 'browse'], { home, cwd, cols: 80, rows: 24 });
    await until(run, '· 6 of 6 ·');
    run.write('side way');
    const found = await until(run, /· 1 of 6 ·(?![\s\S]*searching)/);
    expect(found).toMatch(new RegExp(`^› ${forks[0]} .*fork at 2 · Plan the move`, 'm'));
    expect(found).not.toMatch(idPattern(root));
    // A query every member matches: the family open, the forks under their parent.
    run.write('\x15move');
    const all = await until(run, /· 3 of 6 ·(?![\s\S]*searching)/);
    const family = all.split('\n');
    const at = family.findIndex((l) => hasId(l, root));
    expect(family[at + 1]).toMatch(/├─ at 2 · Plan the move/);
    expect(family[at + 2]).toMatch(/└─ at 2 · Plan the move/);
    run.write('\x1b');
    expect(await run.exited).toBe(0);

    // At 60 columns: an export says the whole file name, wrapped; an empty list blames the filter, not the query.
    run = spawnPty(['sessions', 'browse'], { home, cwd, cols: 60, rows: 24 });
    await until(run, '· 6 of 6 ·');
    run.write('charlie');
    await until(run, /· 1 of 6 ·(?![\s\S]*searching)/);
    run.write('\x05');
    await until(run, 'Export to file');
    const name = 'the-notes-on-charlie-for-the-whole-team.md';
    run.write(`\x15${name}\r`);
    const said = await until(run, /^Exported /m);
    const lines = said.split('\n');
    const from = lines.findIndex((l) => l.startsWith('Exported '));
    const text = lines.slice(from).join('\n');
    expect(text).toContain(`Exported ${notes[2]} (2 messages) as md to`);
    expect(text.replace(/\n/g, '')).toContain(join(cwd, name));
    expect(text).not.toContain('…');
    expect(existsSync(join(cwd, name))).toBe(true);

    // A filter leaves nothing (no session is open): the line says so, and how to undo it.
    run.write('\x15');
    await until(run, '· 6 of 6 ·');
    run.write('\x14');
    const empty = await until(run, '· 0 of 6 ·');
    expect(empty).toContain('No session passes the filters');
    expect(empty).not.toContain('clears the query');
    run.write('\x1b');
    expect(await run.exited).toBe(0);
  }, 60_000);
});
