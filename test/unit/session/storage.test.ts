import { appendFileSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import { openSessions, UserError } from '../../../src/index.js';
import { atomicWriteHooks } from '../../../src/store/file/atomic-write.js';
import { readJournal } from '../../../src/store/file/journal.js';
import { allFiles, modeOf } from '../../helpers/files.js';
import { layout } from '../../../src/store/file/layout.js';

afterEach(() => {
  delete atomicWriteHooks.beforeRename;
});


describe('storage: snapshot, journal, permissions', () => {
  it('writes files 0600 and directories 0700', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home: join(home, 'data'), cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'hi' });
    await sessions.history.append('hi');
    await s.close();
    await sessions.list();
    const root = join(home, 'data');
    expect(modeOf(root)).toBe(0o700);
    for (const file of allFiles(root)) expect(modeOf(file), file).toBe(0o600);
    for (const dir of [join(root, 'projects'), layout.project(sessions.store.location, sessions.project.key), join(layout.project(sessions.store.location, sessions.project.key), 'sessions'), s.where.files!.dir]) {
      expect(modeOf(dir), dir).toBe(0o700);
    }
  });

  it('a crash between writing the temp file and the rename leaves the old snapshot intact', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'saved before' });
    await s.save();
    const file = join(s.where.files!.dir, 'session.json');
    const before = readFileSync(file);

    await s.append({ role: 'user', content: 'only in the journal' });
    let tmpSeen = '';
    atomicWriteHooks.beforeRename = (tmp) => {
      tmpSeen = tmp;
      expect(statSync(tmp).size).toBeGreaterThan(0); // the new snapshot was fully written…
      throw Object.assign(new Error('simulated crash'), { code: 'EIO' }); // …and the rename never happened
    };
    await expect(s.save()).rejects.toThrow('simulated crash');
    delete atomicWriteHooks.beforeRename;

    expect(readFileSync(file).equals(before)).toBe(true);
    expect(tmpSeen).not.toBe('');
    expect(readdirSync(s.where.files!.dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(s.dirty).toBe(true);
    await simulateCrash(s);

    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['saved before', 'only in the journal']);
    expect(resumed.resumeReport.recoveredMessages).toBe(1);
    expect(resumed.resumeReport.wasInterrupted).toBe(true);
    await resumed.close();
  });

  it('loads every complete line of a journal with a torn tail', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    for (const content of ['a', 'b', 'c']) await s.append({ role: 'user', content });
    await simulateCrash(s);
    const journal = join(s.where.files!.dir, 'journal.jsonl');
    appendFileSync(journal, '{"seq":99,"ts":"2026-11-22T00:00:00.000Z","type":"message","payload":{"mess');

    const read = await readJournal(journal);
    expect(read.tornTail).toBe(true);
    expect(read.damagedLines).toEqual([]);
    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['a', 'b', 'c']);
    expect(resumed.resumeReport.notices).toEqual([]);
    expect(readdirSync(s.where.files!.dir).filter((n) => n.includes('corrupt'))).toEqual([]);
    // Appending after a torn tail must not glue onto the broken bytes.
    await resumed.append({ role: 'user', content: 'd' });
    await simulateCrash(resumed);
    const again = await sessions.resume(s.id);
    expect(again.messages.map((m) => m.content)).toEqual(['a', 'b', 'c', 'd']);
    await again.close();
  });

  it('quarantines a copy of a journal with a damaged middle line and loads the rest', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    for (const content of ['first', 'second', 'third']) await s.append({ role: 'user', content });
    await simulateCrash(s);
    const journal = join(s.where.files!.dir, 'journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n');
    // The second message's line (the automatic title's line comes before it).
    const at = lines.findIndex((line) => line.includes('"content":"second"'));
    lines[at] = `{"seq":${at + 1},"ts":"garbage\u0000\u0000`;
    writeFileSync(journal, lines.join('\n'));
    const damaged = readFileSync(journal);

    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['first', 'third']);
    const copies = readdirSync(s.where.files!.dir).filter((n) => n.startsWith('journal.jsonl.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(s.where.files!.dir, copies[0])).equals(damaged)).toBe(true);
    expect(resumed.resumeReport.notices).toEqual([
      `The journal had 1 damaged line(s) (line ${at + 1}); a copy is kept at ${join(s.where.files!.dir, copies[0])}; every readable line was loaded.`,
    ]);
    // The recovered state was snapshotted, so the damage is not reported again.
    await resumed.close();
    const again = await sessions.resume(s.id);
    expect(again.resumeReport.notices).toEqual([]);
    expect(again.messages.map((m) => m.content)).toEqual(['first', 'third']);
    await again.close();
  });

  it('a data home that cannot be used is a one-line UserError', async () => {
    const base = tmpHome();
    const file = join(base, 'not-a-dir');
    writeFileSync(file, 'x');
    const err = await openSessions({ home: file, cwd: tmpHome() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as Error).message).toBe(
      `Cannot use the data directory \`${file}\`: \`${file}\` is a file, where chatkeep keeps a folder. Move that file away, or choose another data directory with --home or CHATKEEP_HOME.`,
    );
    expect((err as Error).message).not.toContain('\n');
  });

  it('a full disk fails the append, counts nothing, and leaves the journal whole', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'fits' });
    await s.close();
    // Every write to the journal now fails with ENOSPC.
    const journal = join(s.where.files!.dir, 'journal.jsonl');
    rmSync(journal);
    symlinkSync('/dev/full', journal);
    const resumed = await sessions.resume(s.id);
    const err = await resumed.append({ role: 'user', content: 'does not fit' }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ENOSPC');
    expect(resumed.messages.map((m) => m.content)).toEqual(['fits']);
    expect(resumed.stats.messageCount).toBe(1);
    // The snapshot is still the truth, and the session keeps working once there is room.
    rmSync(journal);
    expect((await sessions.read(s.id)).messages.map((m) => m.content)).toEqual(['fits']);
  });

  it('truncates the journal after a snapshot, and an append costs one line', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    // Titled: the first message then writes no automatic title, so each append is its one line.
    const s = await sessions.create({ title: 'appends' });
    const journal = join(s.where.files!.dir, 'journal.jsonl');
    for (let i = 0; i < 50; i++) await s.append({ role: 'user', content: `message ${i}` });
    expect(readFileSync(journal, 'utf8').split('\n').filter(Boolean)).toHaveLength(1 + 50); // the title, then one line per append
    await s.save();
    expect(statSync(journal).size).toBe(0);
    const snapshotBefore = statSync(join(s.where.files!.dir, 'session.json')).mtimeMs;
    await s.append({ role: 'user', content: 'one more' });
    // The turn wrote one journal line and did not rewrite the snapshot.
    expect(readFileSync(journal, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    expect(statSync(join(s.where.files!.dir, 'session.json')).mtimeMs).toBe(snapshotBefore);
    await s.close();
  });
});
