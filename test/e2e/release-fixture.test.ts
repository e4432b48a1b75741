/**
 * Sessions written by chatkeep 0.1.0 (test/fixtures/release-0.1.0/home, made by that release's own
 * CLI: a closed session with a /reset archive, one with journal lines after its snapshot, one with
 * only a journal, one killed mid-reply) load, list and resume unchanged under this build.
 * `expected.json` is what 0.1.0 itself printed for `sessions list --all --json` and `sessions show`.
 * Fields a later build adds are allowed; every field 0.1.0 printed must read the same.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/release-0.1.0/', import.meta.url));

interface Expected {
  list: { id: string; messageCount: number }[];
  show: Record<string, { messageCount: number; messages: unknown[] }>;
}
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;

/** A copy of the 0.1.0 data home, so that nothing a test does touches the fixture. */
function releaseHome(): string {
  const home = tmpHome();
  cpSync(join(FIXTURE, 'home'), home, { recursive: true });
  return home;
}

describe('sessions written by chatkeep 0.1.0', () => {
  it('list and show exactly as 0.1.0 printed them', async () => {
    const home = releaseHome();
    const cwd = tmpHome('chatkeep-project-');
    const list = await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject(expected.list);

    for (const { id } of expected.list) {
      const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
      expect(show.code, show.stderr).toBe(0);
      expect(JSON.parse(show.stdout)).toMatchObject(expected.show[id]!);
    }
  });

  it('resume with their whole history, and take new messages', async () => {
    const home = releaseHome();
    const cwd = tmpHome('chatkeep-project-');
    for (const { id, messageCount } of expected.list) {
      const chat = await runPiped(['--session-id', id, '--autosave', 'off'], 'one more\n/quit\n', { home, cwd });
      expect(chat.code, chat.stderr).toBe(0);
      // the echo assistant counts what it was sent: every stored message plus the new one
      expect(chat.stdout).toContain(`Echo: one more (read ${messageCount + 1} messages)`);
      expect(chat.stderr).toContain(`Saved ${id} (${messageCount + 2} messages).`);

      const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
      const after = JSON.parse(show.stdout) as { messageCount: number; status: string; messages: unknown[] };
      expect(after).toMatchObject({ messageCount: messageCount + 2, status: 'closed' });
      expect(after.messages.slice(0, messageCount)).toMatchObject(expected.show[id]!.messages);
    }
    // nothing was quarantined: every file 0.1.0 wrote read cleanly
    for (const { id } of expected.list) {
      const dir = join(home, 'projects', '-tmp-fx-proj', 'sessions', id);
      expect(readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toEqual([]);
    }
  });
});
