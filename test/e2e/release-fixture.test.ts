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

/** A copy of a fixture's data home (0.1.0's by default), so that nothing a test does touches the fixture. */
function releaseHome(from = join(FIXTURE, 'home')): string {
  const home = tmpHome();
  cpSync(from, home, { recursive: true });
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

/**
 * Sessions as a newer chatkeep leaves them (test/fixtures/release-future/home, hand-written: it
 * stands for a later release): journals holding event types this build does not know
 * (`reaction`, `tool-start`, `checkpoint`, `session-meta`, `attachment`…) between the ones it
 * knows, one after a snapshot, one with no snapshot at all. They are not damage: listed and
 * shown with exit 0, resumed without moving anything aside, each unknown line kept byte for byte
 * (through the snapshot, an export and import, a copy) and said once (docs/design.md §4).
 */
const FUTURE = fileURLToPath(new URL('../fixtures/release-future/home/', import.meta.url));
const FUTURE_TYPES = new Set(['reaction', 'tool-start', 'tool-output', 'checkpoint', 'pin', 'session-meta', 'attachment']);
const FUTURE_SESSIONS = [
  { id: 'session-20270302-091500', messageCount: 4, note: '5 events of types reaction, tool-start, tool-output, checkpoint, pin: written by a newer chatkeep; kept as is.' },
  { id: 'session-20270302-094000', messageCount: 2, note: '2 events of types session-meta, attachment: written by a newer chatkeep; kept as is.' },
];
const futureDir = (home: string, id: string): string => join(home, 'projects', '-tmp-fx-future', 'sessions', id);

/** The journal lines of `id` in the fixture whose types this build does not know, exactly as written. */
function futureLines(id: string): string[] {
  const lines = readFileSync(join(futureDir(FUTURE, id), 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
  return lines.filter((line) => FUTURE_TYPES.has((JSON.parse(line) as { type: string }).type));
}

/** The `futureEvents` lines kept in a session's snapshot. */
function keptLines(home: string, id: string): string[] {
  const snapshot = JSON.parse(readFileSync(join(futureDir(home, id), 'session.json'), 'utf8')) as { json: { futureEvents?: { line: string }[] } };
  return (snapshot.json.futureEvents ?? []).map((e) => e.line);
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('sessions written by a newer chatkeep (event types this build does not know)', () => {
  const futureHome = (): string => releaseHome(FUTURE);

  it('list and show them as sound sessions, saying once what was kept', async () => {
    const home = futureHome();
    const cwd = tmpHome('chatkeep-project-');
    const list = await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { id: string; messageCount: number; problem?: unknown }[];
    expect(rows.map(({ id, messageCount }) => ({ id, messageCount })).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      FUTURE_SESSIONS.map(({ id, messageCount }) => ({ id, messageCount })),
    );
    expect(rows.filter((row) => row.problem !== undefined)).toEqual([]);

    for (const { id, note } of FUTURE_SESSIONS) {
      const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
      expect(show.code, show.stderr).toBe(0);
      expect(show.stderr).toBe('');
      expect(count(show.stdout, 'written by a newer chatkeep')).toBe(1);
      expect(show.stdout).toContain(`  ${note}\n`);
      const json = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd })).stdout) as { futureEvents: { type: string }[] };
      expect(json.futureEvents.map((e) => e.type)).toEqual(futureLines(id).map((line) => (JSON.parse(line) as { type: string }).type));
    }
  });

  it('resume them, keeping every unknown line byte for byte in the snapshot and moving nothing aside', async () => {
    const home = futureHome();
    const cwd = tmpHome('chatkeep-project-');
    for (const { id, messageCount, note } of FUTURE_SESSIONS) {
      const chat = await runPiped(['--session-id', id, '--autosave', 'off'], 'one more\n/quit\n', { home, cwd });
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.stdout).toContain(`Echo: one more (read ${messageCount + 1} messages)`);
      expect(count(chat.stderr, 'written by a newer chatkeep')).toBe(1);
      expect(chat.stderr).toContain(note);
      expect(readdirSync(futureDir(home, id)).filter((name) => name.includes('.corrupt-'))).toEqual([]);
      expect(keptLines(home, id)).toEqual(futureLines(id));

      // Said once: the next resume finds them in the snapshot, where they stay.
      const again = await runPiped(['--session-id', id, '--autosave', 'off'], '/quit\n', { home, cwd });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('written by a newer chatkeep');
      expect(keptLines(home, id)).toEqual(futureLines(id));
      const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
      expect(show.code).toBe(0);
      expect(JSON.parse(show.stdout)).toMatchObject({ messageCount: messageCount + 2, status: 'closed' });
    }
  });

  it('carry them through export and import, and through sessions copy', async () => {
    const home = futureHome();
    const cwd = tmpHome('chatkeep-project-');
    for (const { id } of FUTURE_SESSIONS) {
      const exported = await runPiped(['sessions', 'export', id], '', { home, cwd });
      expect(exported.code, exported.stderr).toBe(0);
      const document = JSON.parse(exported.stdout) as { session: { futureEvents: { line: string }[] } };
      expect(document.session.futureEvents.map((e) => e.line)).toEqual(futureLines(id));

      const other = tmpHome();
      const imported = await runPiped(['sessions', 'import', '-'], exported.stdout, { home: other, cwd });
      expect(imported.code, imported.stderr).toBe(0);
      // The same document but for the project, which an import takes from where it runs.
      const again = await runPiped(['sessions', 'export', id], '', { home: other, cwd });
      expect(again.stdout).toBe(exported.stdout.replace('"project": "/tmp/fx/future"', `"project": "${cwd}"`));
    }

    const copy = tmpHome();
    const copied = await runPiped(['sessions', 'copy', '--all', '--to', copy], '', { home, cwd });
    expect(copied.code, copied.stderr).toBe(0);
    for (const { id } of FUTURE_SESSIONS) expect(keptLines(copy, id)).toEqual(futureLines(id));
  });
});
