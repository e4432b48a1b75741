/**
 * A damaged session is never hidden while anything of it is stored: after `/save`, a snapshot cut
 * to 100 bytes is recovered with nothing readable, and the session stays listed, `recovered`,
 * with where its damaged part is kept; the good snapshot put back by hand is listed as it is (the
 * caches lose to it); `sessions doctor` lists every session with a problem and what can be
 * restored, restores what a kept part holds as a new session, and lets the parts go. On the file
 * store and on PostgreSQL.
 */
import { copyFileSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase, runSql } from '../helpers/postgres.js';

type Row = { id: string; title: string | null; messageCount: number | null; problem?: { kind: string; detail: string } };

async function listed(options: RunOptions): Promise<Row[]> {
  const r = await runPiped(['sessions', 'list', '--json'], '', options);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/** Two lines, `/save` (the journal emptied: the snapshot is all there is), quit. */
async function saved(options: RunOptions): Promise<string> {
  const chat = await runPiped([], 'one\ntwo\n/save\n/quit\n', options);
  expect(chat.code, chat.stderr).toBe(0);
  return /Saved (\S+) \(4 messages\)/.exec(chat.stderr)![1]!;
}

async function resumeAndQuit(options: RunOptions, id: string): Promise<string> {
  const r = await runPiped(['--session-id', id], '/quit\n', options);
  expect(r.code, r.stderr).toBe(0);
  return r.stderr;
}

describe('sessions doctor, and a damaged session never hidden', () => {
  it('file store: recovered with nothing readable, still listed; the snapshot put back by hand wins; restore and forget', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const options = { home, cwd };
    const id = await saved(options);
    const dir = sessionDir(home, id)!;
    const snapshot = join(dir, 'session.json');
    const good = readFileSync(snapshot);
    truncateSync(snapshot, 100);
    expect(await resumeAndQuit(options, id)).toContain('Recovered 0 messages from the journal');
    const kept = join(dir, readdirSync(dir).find((name) => name.startsWith('session.json.corrupt-'))!);

    // Listed, with its problem and where the damaged part is kept; in the text listing too.
    expect(await listed(options)).toEqual([
      expect.objectContaining({ id, messageCount: 0, problem: { kind: 'recovered', detail: `damaged part kept at ${kept}` } }),
    ]);
    const text = await runPiped(['sessions', 'list'], '', options);
    expect(text.stdout).toMatch(new RegExp(`^ {2}${id} .* 0 messages +recovered +one\\n$`));
    expect(text.stderr).toContain(`See what is kept, restore it or let it go with: chatkeep sessions doctor ${id}\n`);

    // The doctor says what is kept and what it holds (exit 1: a problem).
    const doctor = await runPiped(['sessions', 'doctor'], '', options);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toBe(
      [
        `${id}  recovered · 0 messages readable now · ${cwd}`,
        `  kept: ${kept}`,
        '    no message readable in it',
        `  Once you no longer need what is kept, let it go: chatkeep sessions doctor ${id} --forget --yes`,
        '',
      ].join('\n'),
    );
    expect((await runPiped(['sessions', 'doctor', id, '--restore'], '', options)).stderr).toBe(
      `chatkeep: Nothing to restore: session ${id} holds every readable message of what is kept aside of it. See what is kept with: chatkeep sessions doctor ${id}\n`,
    );

    // A whole copy kept aside (as an older build's recovery left it): its four messages restored as a new session.
    writeFileSync(join(dir, 'session.json.corrupt-2026-01-01T00-00-00-000Z'), good);
    const json = JSON.parse((await runPiped(['sessions', 'doctor', id, '--json'], '', options)).stdout) as { sessions: { kept: { readable: number; missing: number }[] }[] };
    expect(json.sessions[0]!.kept.map((k) => [k.readable, k.missing])).toEqual([[4, 4], [0, 0]]);
    const restored = await runPiped(['sessions', 'doctor', id, '--restore'], '', options);
    expect(restored.code, restored.stderr).toBe(0);
    const copy = restored.stdout.trim();
    expect(restored.stderr).toBe(
      `Restored 4 messages kept aside of ${id} as ${copy} ("Restored from ${id}"); ${id} is unchanged.\nResume with: chatkeep --session-id ${copy}\n`,
    );
    const shown = JSON.parse((await runPiped(['sessions', 'show', copy, '--json'], '', options)).stdout) as { messages: { content: string }[] };
    expect(shown.messages.map((m) => m.content)).toEqual(['one', expect.any(String), 'two', expect.any(String)]);

    // The good snapshot put back by hand: listed as it is, though the caches said 0 messages.
    copyFileSync(snapshot, `${snapshot}.was`);
    writeFileSync(snapshot, good);
    expect((await listed(options)).find((r) => r.id === id)).toMatchObject({ messageCount: 4, problem: { kind: 'recovered' } });

    // Let go without --yes on a pipe: refused, nothing removed; with it, the problem ends.
    const refused = await runPiped(['sessions', 'doctor', id, '--forget'], '', options);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^chatkeep: This would remove 2 damaged parts kept aside of ${id} \\(.*\\) for good; nothing was removed. To go ahead, run: chatkeep sessions doctor ${id} --forget --yes\n$`));
    expect(readdirSync(dir).filter((n) => n.includes('.corrupt-'))).toHaveLength(2);
    expect((await runPiped(['sessions', 'doctor', id, '--forget', '--yes'], '', options)).stderr).toBe(`Removed 2 damaged parts kept aside of ${id}; it has no problem now.\n`);
    expect(readdirSync(dir).filter((n) => n.includes('.corrupt-'))).toEqual([]);
    expect((await listed(options)).find((r) => r.id === id)).not.toHaveProperty('problem');
    const healthy = await runPiped(['sessions', 'doctor'], '', options);
    expect([healthy.code, healthy.stdout, healthy.stderr]).toEqual([0, '', 'No session has a problem.\n']);
  });

  it('PostgreSQL: a snapshot damaged after /save is quarantined, the session listed as recovered; forget ends it', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { CHATKEEP_STORE: url } };
    const id = await saved(options);
    await runSql(url, 'UPDATE chatkeep.sessions SET snapshot = left(snapshot::text, 100) WHERE id = $1', [id]);
    expect(await resumeAndQuit(options, id)).toContain('it was moved to chatkeep.quarantine (n = 1)');
    expect(await listed(options)).toEqual([
      expect.objectContaining({ id, problem: { kind: 'recovered', detail: 'damaged part kept at chatkeep.quarantine (n = 1)' } }),
    ]);
    const doctor = await runPiped(['sessions', 'doctor', '--json'], '', options);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.stdout)).toEqual({
      fixed: [],
      sessions: [expect.objectContaining({ id, kept: [{ where: 'chatkeep.quarantine (n = 1)', part: 'snapshot', readable: 0, unreadable: 0, missing: 0 }] })],
    });
    // Let go: nothing of its conversation is stored any more, and an empty session is not listed.
    expect((await runPiped(['sessions', 'doctor', id, '--forget', '--yes'], '', options)).stderr).toBe(
      `Removed 1 damaged part kept aside of ${id}; it holds no message now, so listings leave it out (it is still there by its ID).\n`,
    );
    expect(await runSql(url, 'SELECT count(*)::int AS n FROM chatkeep.quarantine')).toEqual([{ n: 0 }]);
    expect(await listed(options)).toEqual([]);
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', options);
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    expect(JSON.parse(shown.stdout)).not.toHaveProperty('problem');
  });
});
