/**
 * `sessions show` and `sessions list` tell the truth about damaged files and files from a newer
 * chatkeep, agree with each other (one reading of the files), and say how to recover; the
 * recovery they print works.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { SCHEMA_VERSION } from '../../src/session/format/migrations.js';

async function sixMessages(home: string, cwd: string): Promise<{ id: string; dir: string }> {
  // /save first: a running snapshot empties the journal, so the snapshot damaged below is all
  // there is (a closing snapshot alone leaves a small journal, from which resuming recovers every
  // message: test/unit/session/closing-journal.test.ts).
  const chat = await runPiped([], 'one\ntwo\nthree\n/save\n', { home, cwd });
  const id = /Saved (\S+) \(6 messages\)/.exec(chat.stderr)?.[1];
  expect(id).toBeDefined();
  return { id: id!, dir: sessionDir(home, id!)! };
}

type Row = { id: string; messageCount: number | null; status: string; problem?: { kind: string; detail: string; needs?: string } };

describe('a truncated session.json', () => {
  it('show and list both say it is damaged and how to recover; the printed recovery works', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { id, dir } = await sixMessages(home, cwd);
    // Listed once while whole: the index caches "6 messages, closed".
    expect((await runPiped(['sessions', 'list'], '', { home, cwd })).stdout).toMatch(/ 6 messages .* closed /);
    const file = join(dir, 'session.json');
    truncateSync(file, Math.floor(readFileSync(file).length / 2));
    const advice = `chatkeep: Session ${id} is damaged (session.json: not JSON (`;
    const recover = `). Resuming it moves the damaged file aside, kept, and continues with what is readable: chatkeep --session-id ${id}\n`;

    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show.code).toBe(2);
    // Cut in half, the snapshot still holds its first three messages whole: each is salvaged.
    expect(show.stdout).toContain(`  project ${cwd} · damaged · 3 messages readable · `);
    expect(show.stdout).toContain('› two');
    expect(show.stderr.startsWith(advice)).toBe(true);
    expect(show.stderr.endsWith(recover)).toBe(true);
    expect(show.stderr.split('\n')).toHaveLength(2);

    const json = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, messageCount: 3, problem: { kind: 'damaged', detail: expect.stringMatching(/^session\.json: not JSON/) } });

    const list = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^ {2}${id}\\s+.* 3 messages .*damaged\\s+one\\n$`));
    expect(list.stderr).toBe(show.stderr);
    const rows = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout) as Row[];
    expect(rows).toEqual([expect.objectContaining({ id, messageCount: 3, problem: expect.objectContaining({ kind: 'damaged' }) })]);

    // The advice, as printed: resume. The damaged file is kept beside the session.
    const command = /: (chatkeep --session-id \S+)\n$/.exec(show.stderr)![1]!;
    const resumed = await runPiped(command.split(' ').slice(1), '/quit\n', { home, cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('The snapshot was damaged (');
    expect(readdirSync(dir).filter((name) => name.startsWith('session.json.corrupt-'))).toHaveLength(1);
    const after = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(after.code).toBe(0);
    // What was salvaged is the session now; while the damaged file is kept, it says so (exit 0).
    expect(after.stdout).toContain('› two');
    const kept = join(dir, readdirSync(dir).find((name) => name.startsWith('session.json.corrupt-'))!);
    expect(after.stderr).toBe(
      `chatkeep: Session ${id} was recovered from damage; its damaged part kept at ${kept}. See what is kept, restore it or let it go with: chatkeep sessions doctor ${id}\n`,
    );
    expect(JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout)).toEqual([
      expect.objectContaining({ id, messageCount: 3, problem: { kind: 'recovered', detail: `damaged part kept at ${kept}` } }),
    ]);
    // Let go (as the doctor prints it), the file is gone and so is the problem.
    expect((await runPiped(['sessions', 'doctor', id, '--forget', '--yes'], '', { home, cwd })).code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('session.json.corrupt-'))).toEqual([]);
    expect(JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout)[0]).not.toHaveProperty('problem');
    expect((await runPiped(['sessions', 'show', id], '', { home, cwd })).stderr).toBe('');
  });

  it('a listing that reads the files (no index yet) says damaged too', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { id, dir } = await sixMessages(home, cwd);
    truncateSync(join(dir, 'session.json'), 10);
    // No caches at all (index.json, session.meta.json), as in a data directory from 0.1.0: the
    // listing reads the files. (With caches, damage made behind chatkeep's back is listed once
    // a show or resume has read the files: see the test above.)
    rmSync(join(dirname(dirname(dir)), 'index.json'), { force: true });
    rmSync(join(dir, 'session.meta.json'), { force: true });
    const list = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(list.stdout).toMatch(new RegExp(`^ {2}${id}\\s+.* 0 messages\\s+damaged\\s+\\(untitled\\)\\n$`));
    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show.code).toBe(2);
    expect(list.stderr).toBe(show.stderr);
  });
});

describe('a session written by a newer chatkeep', () => {
  it('is listed as a newer version with the chatkeep it needs, not as empty; show says the same', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { id, dir } = await sixMessages(home, cwd);
    const file = join(dir, 'session.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { json: Record<string, unknown> };
    doc.json.schemaVersion = 99;
    doc.json.toolVersion = '9.1.0';
    writeFileSync(file, JSON.stringify(doc));
    // No caches (index.json, session.meta.json): a newer chatkeep writes its own.
    rmSync(join(dirname(dirname(dir)), 'index.json'), { force: true });
    rmSync(join(dir, 'session.meta.json'), { force: true });
    const before = readFileSync(file, 'utf8');

    const list = await runPiped(['sessions', 'list'], '', { home, cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^ {2}${id}\\s+.* \\? messages\\s+newer version \\(needs chatkeep ≥ 9\\.1\\.0\\)\\s+\\(untitled\\)\\n$`));
    const advice = `chatkeep: Session ${id} was written by a newer chatkeep (schemaVersion 99; this chatkeep reads up to ${SCHEMA_VERSION}; needs chatkeep ≥ 9.1.0). Upgrade chatkeep to open it; its files are left untouched.\n`;
    expect(list.stderr).toBe(advice);
    const rows = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', { home, cwd })).stdout) as Row[];
    expect(rows).toEqual([expect.objectContaining({ id, messageCount: null, problem: { kind: 'newer-version', detail: `schemaVersion 99; this chatkeep reads up to ${SCHEMA_VERSION}`, needs: '9.1.0' } })]);

    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show).toEqual({ code: 2, stdout: '', stderr: advice });
    const resume = await runPiped(['--session-id', id], '', { home, cwd });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('needs chatkeep ≥ 9.1.0');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
