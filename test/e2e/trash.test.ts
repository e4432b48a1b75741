import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { runPiped, savedChat, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { fileHashes, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

const DAY = 86_400_000;

/** A closed session made by a piped chat; its ID. */
const chat = (home: string, cwd: string, input = 'hello\n/quit\n'): Promise<string> => savedChat(input, { home, cwd });

/** Sessions last updated `daysAgo` days ago, made through the library with its clock set back. */
async function oldSessions(home: string, cwd: string, daysAgo: number, count: number): Promise<string[]> {
  let now = Date.now() - daysAgo * DAY;
  const sessions = await openSessions({ home, cwd, now: () => new Date(now) });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const session = await sessions.create();
    await session.append({ role: 'user', content: `old ${i}` });
    await session.close();
    ids.push(session.id);
    now += 1000; // one ID per second
  }
  return ids;
}

const listed = async (home: string, cwd: string, all = false): Promise<string[]> =>
  (JSON.parse((await runPiped(['sessions', 'list', '--json', ...(all ? ['--all'] : [])], '', { home, cwd })).stdout) as { id: string }[]).map((r) => r.id);

describe('sessions rm, trash, restore', () => {
  it('moves a session to the trash and brings it back byte for byte, resumable as before', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd, 'remember 42\n/quit\n');
    const before = fileHashes(sessionDir(home, id)!);

    const rm = await runPiped(['sessions', 'rm', id], '', { home, cwd });
    expect(rm).toEqual({ code: 0, stdout: `Moved ${id} to the trash.\n`, stderr: expect.stringMatching(new RegExp(`^Restore with: .* sessions restore ${id}\\n$`)) });
    expect(await listed(home, cwd, true)).toEqual([]);
    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show.code).toBe(2);
    const resume = await runPiped(['--session-id', id], '', { home, cwd });
    expect(resume).toEqual({ code: 2, stdout: '', stderr: `chatkeep: Session ${id} is in the trash. Restore it with: chatkeep sessions restore ${id}\n` });
    expect(sessionDir(home, id)).toBeUndefined();

    const trash = await runPiped(['sessions', 'trash'], '', { home, cwd });
    expect(trash.stdout).toMatch(new RegExp(`^${id}  trashed \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  2 messages  remember 42  \\[${cwd}\\]\\n$`));
    const json = JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout) as unknown;
    expect(json).toEqual([
      { id, title: 'remember 42', project: cwd, trashedAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/), messageCount: 2 },
    ]);

    const restore = await runPiped(['sessions', 'restore', id.slice(0, -3)], '', { home, cwd });
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(new RegExp(`^Restored ${id} to ${cwd}\\. Resume with: .* --session-id ${id}\\n$`));
    expect(fileHashes(sessionDir(home, id)!)).toEqual(before);
    expect((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout).toBe('[]\n');
    expect(await listed(home, cwd)).toEqual([id]);
    const again = await runPiped(['--session-id', id], 'what was it?\n/quit\n', { home, cwd });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Echo: what was it? (read 3 messages)\n');
  });

  it('refuses a session a live chat holds (exit 3), moving nothing, and moves it once that chat quit', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const other = await chat(home, cwd);
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('still here', 'Echo: still here');

    const rm = await runPiped(['sessions', 'rm', other, id], '', { home, cwd });
    expect(rm.code).toBe(3);
    expect(rm.stdout).toBe(`Moved ${other} to the trash.\n`);
    expect(rm.stderr.split('\n')[0]).toMatch(new RegExp(`^chatkeep: Session ${id} is in use by process ${run.pid} on \\S+ \\(since .+\\): quit it there first\\. Or continue in a copy of it: .*chatkeep.* --fork ${id}$`));
    expect(sessionDir(home, id)).toBeDefined();
    expect(readdirSync(join(home, 'trash'))).toEqual([other]);
    expect(await run.say('and writing', 'Echo: and writing')).toContain('Echo: and writing');
    expect(await run.quit()).toBe(0);

    expect((await runPiped(['sessions', 'rm', id], '', { home, cwd })).code).toBe(0);
    expect((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout).toContain(`"messageCount": 4`);
  });

  it('moves nothing when one of the IDs is unknown or malformed (exit 2)', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd);
    const unknown = await runPiped(['sessions', 'rm', id, 'session-19990101-000000'], '', { home, cwd });
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: No session `session-19990101-000000`. List sessions with: chatkeep sessions list --all\n' });
    const hostile = await runPiped(['sessions', 'rm', id, '../x'], '', { home, cwd });
    expect(hostile.code).toBe(2);
    expect(hostile.stderr.split('\n')).toHaveLength(2);
    expect(await listed(home, cwd)).toEqual([id]);
    expect(existsSync(join(home, 'trash'))).toBe(false);
    const none = await runPiped(['sessions', 'rm'], '', { home, cwd });
    expect(none).toMatchObject({ code: 2, stderr: 'chatkeep: sessions rm needs a session ID (or several). See chatkeep sessions --help\n' });
  });

  it('restore refuses an ID whose place is taken, overwriting nothing (exit 2)', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd);
    const slot = sessionDir(home, id)!;
    expect((await runPiped(['sessions', 'rm', id], '', { home, cwd })).code).toBe(0);
    mkdirSync(slot);
    writeFileSync(join(slot, 'session.json'), 'someone else');
    const restore = await runPiped(['sessions', 'restore', id], '', { home, cwd });
    expect(restore).toEqual({
      code: 2,
      stdout: '',
      stderr: `chatkeep: Cannot restore ${id}: a session with that ID is in ${cwd} now. Nothing was changed; the trashed one stays in the trash.\n`,
    });
    expect(readFileSync(join(slot, 'session.json'), 'utf8')).toBe('someone else');
    expect(JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout)).toHaveLength(1);
    const unknown = await runPiped(['sessions', 'restore', 'nope'], '', { home, cwd });
    expect(unknown).toMatchObject({ code: 2, stderr: 'chatkeep: No session `nope` in the trash. See what is there with: chatkeep sessions trash\n' });
  });
});

describe('sessions prune', () => {
  it('moves what was last updated longer ago than --older-than, printing each ID; --dry-run moves nothing', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const elsewhere = tmpHome('chatkeep-other-');
    const old = await oldSessions(home, cwd, 45, 2);
    const [otherOld] = await oldSessions(home, elsewhere, 60, 1);
    const recent = await chat(home, cwd);

    const dry = await runPiped(['sessions', 'prune', '--older-than', '30d', '--dry-run'], '', { home, cwd });
    expect(dry).toEqual({ code: 0, stdout: `${old[1]}\n${old[0]}\n`, stderr: 'Dry run: 2 sessions in this project would go to the trash; nothing moved.\n' });
    expect(await listed(home, cwd, true)).toHaveLength(4);

    const prune = await runPiped(['sessions', 'prune', '--older-than', '30d'], '', { home, cwd });
    expect(prune.code).toBe(0);
    expect(prune.stdout).toBe(`${old[1]}\n${old[0]}\n`);
    expect(prune.stderr).toBe(
      `Moved 2 sessions to the trash. Restore each by its ID, the first with: chatkeep sessions restore ${old[1]}\nList the trash with: chatkeep sessions trash\n`,
    );
    expect(await listed(home, cwd)).toEqual([recent]);

    const all = await runPiped(['sessions', 'prune', '--older-than', '8w', '--all', '--json'], '', { home, cwd });
    expect((JSON.parse(all.stdout) as { id: string }[]).map((r) => r.id)).toEqual([otherOld]);
    expect(await listed(home, cwd, true)).toEqual([recent]);
    expect((JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout) as { id: string }[]).map((t) => t.id).sort()).toEqual(
      [...old, otherOld].sort(),
    );
    const nothing = await runPiped(['sessions', 'prune', '--older-than', '30d'], '', { home, cwd });
    expect(nothing).toEqual({ code: 0, stdout: '', stderr: 'No sessions in this project were last updated more than 30d ago; nothing moved.\n' });
  });

  it('skips a session held by a live process (exit 3) and moves the others', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const [free] = await oldSessions(home, cwd, 40, 1);
    // Held by this test's process, last written 40 days ago.
    const sessions = await openSessions({ home, cwd, now: () => new Date(Date.now() - 40 * DAY + 5000) });
    const held = await sessions.create();
    await held.append({ role: 'user', content: 'busy' });
    await held.save();
    const prune = await runPiped(['sessions', 'prune', '--older-than', '30d'], '', { home, cwd });
    expect(prune.code).toBe(3);
    expect(prune.stdout).toBe(`${free}\n`);
    expect(prune.stderr).toContain(`chatkeep: Session ${held.id} is in use by process ${process.pid}`);
    expect(sessionDir(home, held.id)).toBeDefined();
    await held.close();
  });

  it('needs --older-than, and refuses a bad age, changing nothing (exit 2)', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await oldSessions(home, cwd, 90, 1);
    expect(await runPiped(['sessions', 'prune'], '', { home, cwd })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chatkeep: sessions prune needs --older-than AGE (such as 30d): nothing is pruned by default. See chatkeep sessions --help\n',
    });
    expect(await runPiped(['sessions', 'prune', '--older-than', '30 days'], '', { home, cwd })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'chatkeep: Bad --older-than `30 days`: give a whole number and a unit (s, min, h, d or w), such as 30d, 12h or 2w.\n',
    });
    expect(await listed(home, cwd)).toHaveLength(1);
  });
});

describe('sessions empty-trash', () => {
  it('without a terminal needs --yes: one line, exit 2, nothing deleted; with it, deletes and never reissues the ID', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const at = Date.now() - 10 * DAY;
    const sessions = await openSessions({ home, cwd, now: () => new Date(at) });
    const first = await sessions.create();
    await first.append({ role: 'user', content: 'to be deleted' });
    await first.close();
    expect((await runPiped(['sessions', 'rm', first.id], '', { home, cwd })).code).toBe(0);

    const refused = await runPiped(['sessions', 'empty-trash'], '', { home, cwd });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `chatkeep: This would delete 1 session in the trash (${first.id}) for good; nothing was deleted. To go ahead, run: chatkeep sessions empty-trash --yes\n`,
    });
    expect(JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout)).toHaveLength(1);

    const younger = await runPiped(['sessions', 'empty-trash', '--older-than', '1h', '--yes'], '', { home, cwd });
    expect(younger).toEqual({ code: 0, stdout: '', stderr: 'Nothing in the trash was put there more than 1h ago.\n' });

    const deleted = await runPiped(['sessions', 'empty-trash', '--yes', '--json'], '', { home, cwd });
    expect(deleted).toEqual({ code: 0, stdout: `[\n  "${first.id}"\n]\n`, stderr: '' });
    expect(readdirSync(join(home, 'trash'))).toEqual([]);
    expect((await runPiped(['sessions', 'restore', first.id], '', { home, cwd })).code).toBe(2);

    // The same second again: the deleted ID is not given to a new session.
    const second = await sessions.create();
    expect(second.id).toBe(`${first.id}-2`);
    await second.close();
  });

  it('asks on a terminal: no keeps everything, yes deletes', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const id = await chat(home, cwd);
    expect((await runPiped(['sessions', 'rm', id], '', { home, cwd })).code).toBe(0);

    const no = spawnPty(['sessions', 'empty-trash'], { home, cwd });
    await no.waitFor(`Delete 1 session in the trash (${id}) for good? This cannot be undone. [y/n]:`);
    no.write('n');
    expect(await no.exited).toBe(0);
    expect(no.screen()).toContain('Nothing was deleted.');
    expect(JSON.parse((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout)).toHaveLength(1);

    const yes = spawnPty(['sessions', 'empty-trash'], { home, cwd });
    await yes.waitFor('[y/n]:');
    yes.write('y');
    expect(await yes.exited).toBe(0);
    expect(yes.screen()).toContain(`${id}\nDeleted 1 session for good.`);
    expect((await runPiped(['sessions', 'trash', '--json'], '', { home, cwd })).stdout).toBe('[]\n');
  });

  it('documents every trash command in --help', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const all = await runPiped(['sessions', '--help'], '', { home, cwd });
    for (const action of ['rm', 'trash', 'restore', 'prune', 'empty-trash']) {
      expect(all.stdout).toContain(`chatkeep sessions ${action}`);
      // Each subcommand's own help: its usage, and only the options it takes.
      const help = await runPiped(['sessions', action, '--help'], '', { home, cwd });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`chatkeep sessions ${action}`);
      if (action === 'prune' || action === 'empty-trash') expect(help.stdout).toContain('--older-than AGE');
      else expect(help.stdout).not.toContain('--older-than');
    }
    expect(all.stdout).toContain('--older-than AGE');
    expect(existsSync(join(home, 'projects'))).toBe(false);
  });
});
