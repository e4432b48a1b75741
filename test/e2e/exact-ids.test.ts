/**
 * An exact ID is exact everywhere: with sessions `notes` and `notes-2`, every command that takes
 * an ID and is given `notes` acts on `notes` or refuses; none takes it for a prefix of `notes-2`.
 */
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { runPiped } from '../helpers/pty.js';
import { fileHashes, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** `notes` and `notes-2`, one message each, in a fresh data directory. */
async function twoSessions(): Promise<{ home: string; cwd: string }> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-project-');
  const sessions = await openSessions({ home, cwd });
  for (const id of ['notes', 'notes-2']) {
    const session = await sessions.create({ id });
    await session.append({ role: 'user', content: `about ${id}` });
    await session.close();
  }
  return { home, cwd };
}

const trashIds = async (home: string, cwd: string): Promise<string[]> =>
  (JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout) as { id: string }[]).map((t) => t.id).sort();

describe('an exact ID is exact', () => {
  it('in the trash, `notes` is refused as trashed by every command that reads, opens, moves or copies a live session; `notes-2` is untouched', async () => {
    const { home, cwd } = await twoSessions();
    expect((await runPiped(['sessions', 'rm', 'notes'], '', { home, cwd })).code).toBe(0);
    const before = fileHashes(sessionDir(home, 'notes-2')!);
    const trashed = 'Session notes is in the trash. Restore it with: chatkeep sessions restore notes';
    const copyTo = tmpHome('chatkeep-copy-');

    const commands: string[][] = [
      ['sessions', 'show', 'notes'],
      ['sessions', 'show', 'notes', '--json'],
      ['sessions', 'export', 'notes'],
      ['sessions', 'export', 'notes', '--format', 'md'],
      ['sessions', 'rm', 'notes'],
      ['sessions', 'copy', '--to', copyTo, 'notes'],
      ['--session-id', 'notes'],
      ['--fork', 'notes'],
    ];
    for (const args of commands) {
      const run = await runPiped(args, 'hello\n/quit\n', { home, cwd });
      expect({ args, code: run.code, said: run.stderr.includes(trashed), stdout: run.stdout }).toEqual({ args, code: 2, said: true, stdout: '' });
    }
    const load = await runPiped([], '/load notes\n/quit\n', { home, cwd });
    expect(load.stdout + load.stderr).toContain(trashed);
    expect(load.stdout + load.stderr).not.toContain('notes-2');

    expect(fileHashes(sessionDir(home, 'notes-2')!)).toEqual(before);
    expect(await trashIds(home, cwd)).toEqual(['notes']);
  });

  it('restore of a live `notes` is refused, `notes-2` staying in the trash', async () => {
    const { home, cwd } = await twoSessions();
    expect((await runPiped(['sessions', 'rm', 'notes-2'], '', { home, cwd })).code).toBe(0);
    const restore = await runPiped(['sessions', 'restore', 'notes'], '', { home, cwd });
    expect(restore).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: No session `notes` in the trash. See what is there with: chatkeep sessions trash\n' });
    expect(await trashIds(home, cwd)).toEqual(['notes-2']);
  });

  it('restoring `notes` twice restores it once: the second is refused and `notes-2` stays in the trash', async () => {
    const { home, cwd } = await twoSessions();
    expect((await runPiped(['sessions', 'rm', 'notes', 'notes-2'], '', { home, cwd })).code).toBe(0);
    expect((await runPiped(['sessions', 'restore', 'notes'], '', { home, cwd })).code).toBe(0);
    const again = await runPiped(['sessions', 'restore', 'notes'], '', { home, cwd });
    expect(again).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: No session `notes` in the trash. See what is there with: chatkeep sessions trash\n' });
    expect(await trashIds(home, cwd)).toEqual(['notes-2']);
    // A unique prefix still works where nothing is exact.
    expect((await runPiped(['sessions', 'restore', 'notes-'], '', { home, cwd })).code).toBe(0);
    expect(await trashIds(home, cwd)).toEqual([]);
  });
});
