/**
 * Commands that only read write nothing (docs/design.md §8): listing, showing, searching,
 * exporting to standard output and failing leave the data directory byte for byte as it was,
 * in a directory that has no sessions (no `projects/…/project.json`, no `search.idx`) and in
 * one that has. The caches a listing keeps (index.json, search.idx) are brought up to date
 * first: once they are, reading again changes nothing either.
 */
import { utimesSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, savedChat } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { treeDigest } from '../helpers/tree-digest.js';

/** Each read-only command with the exit code it must give (`ID` stands for an existing session). */
const READERS: [string[], number][] = [
  [['sessions', 'list'], 0],
  [['sessions', 'list', '--all', '--json'], 0],
  [['sessions', 'search', 'WORD'], 0],
  [['sessions', 'search', 'hello', '--all', '--json'], 0],
  [['sessions', 'show', 'session-19990101-000000'], 2],
  [['sessions', 'export', 'session-19990101-000000'], 2],
  [['sessions', 'trash'], 0],
  [['-c'], 2],
];

/** Runs every reader in `cwd` and checks that `home` is unchanged after each. */
async function expectNothingWritten(readers: [string[], number][], home: string, cwd: string): Promise<void> {
  for (const [args, code] of readers) {
    const before = treeDigest(home);
    const run = await runPiped(args, '', { home, cwd });
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code);
    expect(treeDigest(home), args.join(' ')).toEqual(before);
  }
}

describe('read-only commands', () => {
  it('create nothing in an empty data directory', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await expectNothingWritten(READERS, home, cwd);
    expect(treeDigest(home)).toEqual({});
  });

  it('write nothing beside existing sessions, here or in a directory without any', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await savedChat('hello there\n/quit\n', { home, cwd });
    // The listing cache records the sessions directory's time only once it has settled: make it so.
    const sessions = dirname(sessionDir(home, id)!);
    const past = new Date(Date.now() - 60_000);
    utimesSync(sessions, past, past);
    for (const args of [['sessions', 'list', '--all'], ['sessions', 'search', 'hello', '--all']]) {
      expect((await runPiped(args, '', { home, cwd })).code).toBe(0);
    }

    const withSession: [string[], number][] = [
      ...READERS.filter(([args]) => args[0] !== '-c'),
      [['sessions', 'show', id], 0],
      [['sessions', 'show', id, '--json'], 0],
      [['sessions', 'export', id], 0],
      [['sessions', 'export', id, '--format', 'md'], 0],
      [['sessions', 'search', 'hello'], 0],
    ];
    await expectNothingWritten(withSession, home, cwd);
    await expectNothingWritten([...READERS, [['sessions', 'show', id], 0]], home, tmpHome('chatkeep-elsewhere-'));
  });
});
