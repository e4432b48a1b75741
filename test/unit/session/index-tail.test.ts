/**
 * index.json's tail (docs/design.md §8): a snapshot write appends its row instead of rewriting
 * the whole index; every reader folds the tail in and answers as a fresh rebuild does; a torn
 * last line is never trusted and is cut off by the next write; an older build, which reads only
 * one JSON document of version 2, refuses a file with a tail.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manySessions, openProject } from '../../../bench/fixtures.js';
import { openSessions, type SessionManager } from '../../../src/index.js';
import type { IndexRow } from '../../../src/session/api/listing.js';
import { indexBody, readHead, readIndexHead } from '../../../src/store/file/index-head.js';
import { freshLog } from '../../../src/store/file/index-log.js';
import { updateIndexRows } from '../../../src/store/file/index-store.js';
import { recordText } from '../../../src/store/file/index-tail.js';
import { layout } from '../../../src/store/file/layout.js';
import { ageSessionDirs, indexOnDisk } from '../../helpers/session-files.js';
import { tmpHome } from '../../helpers/tmp-home.js';

const plain = (rows: unknown[]): unknown => JSON.parse(JSON.stringify(rows));
const projectDirOf = (s: SessionManager): string => layout.project(s.store.location, s.project.key);

/** `count` closed sessions in a fresh project, the listing's index built and settled. */
async function bigProject(count: number): Promise<{ sessions: SessionManager; index: string; home: string; cwd: string }> {
  const home = tmpHome();
  const cwd = join(tmpHome('chatkeep-project-'), 'work');
  const made = await openProject(home, cwd);
  await manySessions(made.manager, made.template, count);
  ageSessionDirs(home);
  await made.manager.list();
  await made.manager.close();
  const sessions = await openSessions({ home, cwd });
  return { sessions, index: layout.index(projectDirOf(sessions)), home, cwd };
}

/** One turn on session `id`, as /save or an exit stores it: a snapshot write. */
async function turn(sessions: SessionManager, id: string, text: string): Promise<void> {
  const session = await sessions.resume(id);
  await session.append({ role: 'user', content: text });
  await session.close();
}

describe('index.json on a snapshot write', () => {
  it('at 2,000 sessions appends the row written, not the whole index, and lists as a fresh rebuild does', async () => {
    const { sessions, index } = await bigProject(2_000);
    const every = await sessions.list();
    const before = statSync(index);
    expect(before.size).toBeGreaterThan(500_000);

    const oldest = every.at(-1)!.id;
    await turn(sessions, oldest, 'brought back to the top');
    const after = statSync(index);
    // The same file, longer by one record (one row of a few hundred bytes), not a rewrite of ~700 KB.
    expect(after.ino).toBe(before.ino);
    expect(after.size - before.size).toBeGreaterThan(0);
    expect(after.size - before.size).toBeLessThan(2_000);

    // Twenty more writes, some on the same sessions: every reader answers as a rebuild from the files does.
    for (let i = 0; i < 20; i++) await turn(sessions, every[(i * 37) % 60 + 100]!.id, `turn ${i}`);
    expect(statSync(index).ino).toBe(before.ino);
    const listed = plain(await sessions.list());
    const newest = plain(await sessions.list({ limit: 50 }));
    expect((listed as IndexRow[])[0]!.id).toBe(every[(19 * 37) % 60 + 100]!.id);
    expect(newest).toEqual((listed as unknown[]).slice(0, 50));
    rmSync(index);
    ageSessionDirs(sessions.home);
    expect(plain(await sessions.list())).toEqual(listed);
    await sessions.close();
  });
});

describe('the tail of index.json', () => {
  const start = Date.parse('2026-11-20T08:00:00.000Z');
  const rows: IndexRow[] = Array.from({ length: 1_000 }, (_, i) => ({
    id: `row-${String(i).padStart(4, '0')}`, title: `a title that takes some room ${i}`, createdAt: start - i * 1000, updatedAt: start - i * 1000,
    messageCount: 1, status: 'closed', journalSeq: 0, project: '/p',
  }) as unknown as IndexRow);
  const projectDir = (): string => tmpHome();
  const newer = (r: IndexRow, by: number, more: Partial<IndexRow> = {}): IndexRow => ({ ...r, updatedAt: start + by, title: `changed ${by}`, ...more });

  it('folds in for the whole listing and the head alike; compaction rewrites it once it is long', async () => {
    const dir = projectDir();
    const log = freshLog();
    writeFileSync(layout.index(dir), indexBody(42, rows, log));
    let truth = rows.slice();
    const body = statSync(layout.index(dir)).size;
    // Rows far down the body brought to the top, one write each; one left open far down (to refresh).
    for (let i = 0; i < 30; i++) {
      const row = newer(rows[900 - i * 7]!, i + 1);
      expect(await updateIndexRows(dir, [row])).toBeLessThan(1_000);
      truth = [row, ...truth.filter((r) => r.id !== row.id)];
    }
    const live = { ...rows[990]!, status: 'open' as const };
    await updateIndexRows(dir, [live]);
    truth = truth.map((r) => (r.id === live.id ? live : r));
    expect(statSync(layout.index(dir)).size).toBeLessThan(body + 31 * 1_000);
    expect((await indexOnDisk(layout.index(dir))).rows).toEqual(truth);
    // The newest 5 from the head and the tail; with a row to refresh past the head, nothing (the caller reads it all).
    const withoutLive = truth.map((r) => (r.id === live.id ? rows[990]! : r));
    await updateIndexRows(dir, [rows[990]!]);
    expect(await readIndexHead(layout.index(dir), 5, 42)).toEqual(withoutLive.slice(0, 5));
    await updateIndexRows(dir, [live]);
    expect(await readIndexHead(layout.index(dir), 5, 42)).toBeUndefined();
    const head = await readHead(layout.index(dir));
    expect(head!.header.log).toMatchObject({ epoch: log.epoch, serial: 33 });

    // Writes until the tail passes its limit (64 KB here): the file is rewritten whole, the tail folded in, the log going on.
    let serial = 33;
    const ino = statSync(layout.index(dir)).ino;
    for (let i = 0; i < 1_000 && statSync(layout.index(dir)).ino === ino; i++) {
      const row = newer(rows[500 + (i % 100)]!, 100 + i);
      await updateIndexRows(dir, [row]);
      serial++;
      truth = [row, ...truth.filter((r) => r.id !== row.id)];
    }
    expect(statSync(layout.index(dir)).ino).not.toBe(ino);
    expect(serial).toBeGreaterThan(200);
    const text = readFileSync(layout.index(dir), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ version: 3, epoch: log.epoch, serial, bodyBytes: Buffer.byteLength(text) });
    expect((await indexOnDisk(layout.index(dir))).rows).toEqual(truth);
  });

  it('gives the newest rows from the head however the tail moved them: up, down, new, among the newest', async () => {
    const dir = projectDir();
    writeFileSync(layout.index(dir), indexBody(42, rows, freshLog()));
    // The newest row renamed (its time unchanged), then moved down past the next: the head still answers.
    await updateIndexRows(dir, [{ ...rows[0]!, title: 'renamed' }]);
    expect(await readIndexHead(layout.index(dir), 1, 42)).toEqual([{ ...rows[0]!, title: 'renamed' }]);
    await updateIndexRows(dir, [{ ...rows[0]!, title: 'renamed', updatedAt: start - 1_500 }]);
    expect(await readIndexHead(layout.index(dir), 2, 42)).toEqual([rows[1], { ...rows[0]!, title: 'renamed', updatedAt: start - 1_500 }]);
    let truth = [rows[1]!, { ...rows[0]!, title: 'renamed', updatedAt: start - 1_500 }, ...rows.slice(2)];
    // A fixed sequence that reaches every case: a row of the newest few, one far down, a new row,
    // a row moved down (older than it was), a tie with the newest row.
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 60; i++) {
      const pick = truth[next() % (i % 3 === 0 ? 5 : truth.length)]!;
      const kind = i % 5;
      const row: IndexRow = kind === 2
        ? { ...rows[0]!, id: `new-${i}`, updatedAt: start + 1_000 + i }
        : kind === 3
          ? { ...pick, updatedAt: pick.updatedAt - 3_500, title: `moved down ${i}` }
          : kind === 4
            ? { ...pick, updatedAt: truth[0]!.updatedAt, title: `a tie ${i}` }
            : newer(pick, 1_000 + i);
      await updateIndexRows(dir, [row]);
      truth = [...truth.filter((r) => r.id !== row.id), row].sort((x, y) => y.updatedAt - x.updatedAt);
      const whole = (await indexOnDisk(layout.index(dir))).rows;
      expect(whole.map((r) => r.id).sort()).toEqual(truth.map((r) => r.id).sort());
      for (const n of [1, 3, 50]) expect(await readIndexHead(layout.index(dir), n, 42)).toEqual(whole.slice(0, n));
    }
  });

  it('appends after a header longer than a writer reads first (a full log of long IDs)', async () => {
    const dir = projectDir();
    const ids = Array.from({ length: 256 }, (_, i) => `a-session-imported-with-a-long-name-${String(i).padStart(40, '0')}`);
    writeFileSync(layout.index(dir), indexBody(42, rows, { epoch: 'e', serial: 7, logFrom: 0, changes: [[7, ...ids]] }));
    expect(readFileSync(layout.index(dir), 'utf8').indexOf('\n')).toBeGreaterThan(20_000);
    const before = statSync(layout.index(dir));
    const row = newer(rows[500]!, 1);
    expect(await updateIndexRows(dir, [row])).toBeLessThan(1_000);
    expect(statSync(layout.index(dir)).ino).toBe(before.ino);
    expect(readFileSync(layout.index(dir), 'utf8').endsWith(recordText(8, [row]))).toBe(true);
    expect((await indexOnDisk(layout.index(dir))).rows).toEqual([row, ...rows.filter((r) => r.id !== row.id)]);
  });

  it('never trusts a torn last line, and the next write cuts it off', async () => {
    const dir = projectDir();
    writeFileSync(layout.index(dir), indexBody(42, rows, freshLog()));
    const first = newer(rows[800]!, 1);
    await updateIndexRows(dir, [first]);
    const whole = (await indexOnDisk(layout.index(dir))).rows;
    // A write cut short by a crash: half a record, no newline.
    const torn = recordText(2, [newer(rows[700]!, 2)]);
    appendFileSync(layout.index(dir), torn.slice(0, torn.length / 2));
    expect((await indexOnDisk(layout.index(dir))).rows).toEqual(whole);
    expect(await readIndexHead(layout.index(dir), 3, 42)).toEqual(whole.slice(0, 3));
    const second = newer(rows[600]!, 3);
    await updateIndexRows(dir, [second]);
    expect(readFileSync(layout.index(dir), 'utf8').endsWith(recordText(2, [second]))).toBe(true);
    expect((await indexOnDisk(layout.index(dir))).rows).toEqual([second, ...whole.filter((r) => r.id !== second.id)]);
  });

  it('makes a damaged line anywhere in it a damaged index: moved aside and rebuilt from the session files', async () => {
    const { sessions, index } = await bigProject(30);
    const truth = plain(await sessions.list());
    const ids = (truth as IndexRow[]).map((r) => r.id);
    await turn(sessions, ids[0]!, 'one more');
    const listed = plain(await sessions.list());
    appendFileSync(index, '{"serial":"not a record"}\n');
    expect(plain(await sessions.list())).toEqual(listed);
    expect(readdirSync(projectDirOf(sessions)).filter((n) => n.startsWith('index.json.corrupt-'))).toHaveLength(1);
    expect((await indexOnDisk(index)).rows.map((r) => r.id)).toEqual((listed as IndexRow[]).map((r) => r.id));
    await sessions.close();
  });

  it('takes a write after a damaged earlier line, which the next listing still moves aside and rebuilds', async () => {
    const { sessions, index } = await bigProject(30);
    const ids = (plain(await sessions.list()) as IndexRow[]).map((r) => r.id);
    await turn(sessions, ids[5]!, 'first');
    await turn(sessions, ids[6]!, 'second');
    // The first record's serial out of sequence: valid JSON, but no record that follows the body.
    const lines = readFileSync(index, 'utf8').split('\n');
    const first = lines.length - 3;
    expect(lines[first]).toMatch(/^\{"serial":\d+,/);
    lines[first] = lines[first]!.replace(/^\{"serial":(\d+),/, (_, n: string) => `{"serial":${Number(n) + 100},`);
    writeFileSync(index, lines.join('\n'));
    await turn(sessions, ids[7]!, 'third');
    // The writer reads no row of the tail: its record follows the last one.
    const tail = readFileSync(index, 'utf8').split('\n').slice(-3);
    expect(tail[2]).toBe('');
    expect(tail[1]).toContain(`"id":"${ids[7]!}"`);
    const listed = plain(await sessions.list()) as IndexRow[];
    expect(listed.slice(0, 3).map((r) => r.id)).toEqual([ids[7], ids[6], ids[5]]);
    expect(readdirSync(projectDirOf(sessions)).filter((n) => n.startsWith('index.json.corrupt-'))).toHaveLength(1);
    rmSync(index);
    ageSessionDirs(sessions.home);
    expect(plain(await sessions.list())).toEqual(listed);
    await sessions.close();
  });

  it('is refused by an older build (one JSON document of version 2 or nothing), and its rewrite is read and taken over', async () => {
    const { sessions, index } = await bigProject(30);
    const ids = (await sessions.list()).map((r) => r.id);
    await turn(sessions, ids[5]!, 'a turn');
    const text = readFileSync(index, 'utf8');
    // What an older build checks: the whole file one JSON document, and its header's version 2. Neither holds.
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const { bodyBytes } = JSON.parse(text.split('\n')[0]!.replace(/,"rows":\[$/, '}')) as { bodyBytes: number };
    expect(JSON.parse(readFileSync(index).subarray(0, bodyBytes).toString('utf8'))).toMatchObject({ version: 3 });
    const listed = plain(await sessions.list());

    // The older build's answer, a rebuild from the files: one JSON document of version 2, no log, no tail.
    const whole = await indexOnDisk(index);
    writeFileSync(index, JSON.stringify({ format: 'chatkeep.index', version: 2, sessionsMtimeMs: whole.sessionsMtimeMs, rows: whole.rows }));
    expect(plain(await sessions.list())).toEqual(listed);
    const before = statSync(index).ino;
    await turn(sessions, ids[9]!, 'another turn');
    // This build's next write makes the file its own again (rewritten whole, with a body length and a log).
    expect(statSync(index).ino).not.toBe(before);
    expect(JSON.parse(readFileSync(index, 'utf8'))).toMatchObject({ version: 3, serial: 0 });
    const after = plain(await sessions.list());
    rmSync(index);
    ageSessionDirs(sessions.home);
    expect(plain(await sessions.list())).toEqual(after);
    await sessions.close();
  });
});
