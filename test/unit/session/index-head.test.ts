import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { eventually } from '../../helpers/eventually.js';
import type { SessionManager } from '../../../src/index.js';
import { openSessions } from '../../../src/index.js';
import { layout } from '../../../src/store/file/layout.js';
import { indexBody, readIndexHead } from '../../../src/store/file/index-head.js';
import { freshLog } from '../../../src/store/file/index-log.js';
import type { IndexRow } from '../../../src/session/api/listing.js';

const start = Date.parse('2026-11-20T08:00:00.000Z');

/** `n` closed sessions, one message each, a second apart (the last is the newest). */
async function populate(home: string, cwd: string, n: number): Promise<{ sessions: SessionManager; ids: string[]; tick: () => Date }> {
  let clock = start;
  const tick = () => new Date((clock += 1000));
  const sessions = await openSessions({ home, cwd, now: tick });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await sessions.create({ title: `s${i}` });
    await s.append({ role: 'user', content: `hello ${i}` });
    await s.close();
    ids.push(s.id);
  }
  return { sessions, ids, tick };
}

const indexPath = (s: SessionManager) => join(layout.project(s.store.location, s.project.key), 'index.json');
/**
 * Ages the sessions directory's mtime past the settling time and lists once, so the index
 * records it and is current: the head is read only then.
 */
async function settle(sessions: SessionManager): Promise<void> {
  const dir = join(layout.project(sessions.store.location, sessions.project.key), 'sessions');
  utimesSync(dir, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  await sessions.list();
  expect(JSON.parse(readFileSync(indexPath(sessions), 'utf8')).sessionsMtimeMs).toBe(statSync(dir).mtimeMs);
}

const plain = (rows: Awaited<ReturnType<SessionManager['list']>>) => rows.map((r) => ({ ...r }));

describe('listing the newest screenful', () => {
  it('gives the newest rows of the full listing, reading only the head of the index', async () => {
    const { sessions } = await populate(tmpHome(), tmpHome(), 10);
    await settle(sessions);
    const truth = plain(await sessions.list());
    expect(plain(await sessions.list({ limit: 4 }))).toEqual(truth.slice(0, 4));
    expect(plain(await sessions.list({ limit: 50 }))).toEqual(truth);
    // Damage the oldest row: the head does not reach it, so the newest four are listed from
    // the index as it is, and nothing is moved aside.
    const index = indexPath(sessions);
    const lines = readFileSync(index, 'utf8').split('\n');
    lines[10] = '{"id": damaged';
    writeFileSync(index, lines.join('\n'));
    expect(plain(await sessions.list({ limit: 4 }))).toEqual(truth.slice(0, 4));
    const dir = layout.project(sessions.store.location, sessions.project.key);
    expect(readdirSync(dir).filter((n) => n.includes('corrupt'))).toEqual([]);
    // The full listing reads it all, never trusts it, and rebuilds it.
    expect(plain(await sessions.list())).toEqual(truth);
    expect(readdirSync(dir).filter((n) => n.includes('corrupt'))).toHaveLength(1);
  });

  it('never trusts a damaged row among those it shows', async () => {
    const { sessions } = await populate(tmpHome(), tmpHome(), 6);
    await settle(sessions);
    const truth = plain(await sessions.list());
    const index = indexPath(sessions);
    const lines = readFileSync(index, 'utf8').split('\n');
    lines[2] = '{"id": damaged';
    writeFileSync(index, lines.join('\n'));
    expect(plain(await sessions.list({ limit: 3 }))).toEqual(truth.slice(0, 3));
  });

  it('hides nothing another writer did since: a new session, a turn on an old one, one held open', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { sessions, ids, tick } = await populate(home, cwd, 8);
    await settle(sessions);
    const other = await openSessions({ home, cwd, now: tick });
    // A turn on the oldest session, closed: its row is rewritten, and it is now the newest.
    const old = await other.resume(ids[0]);
    await old.append({ role: 'user', content: 'again' });
    await old.close();
    expect((await sessions.list({ limit: 1 })).map((r) => [r.id, r.messageCount])).toEqual([[ids[0], 2]]);
    // Held open by the other writer, with turns only in its journal.
    const held = await other.resume(ids[1]);
    await held.append({ role: 'user', content: 'still here' });
    // Marked open in the index once the other writer is idle (as the full listing sees it).
    const expected = [[ids[1], 'open', 2], [ids[0], 'closed', 2]];
    await eventually(async () => expect((await sessions.list()).slice(0, 2).map((r) => [r.id, r.status, r.messageCount])).toEqual(expected));
    const top = await sessions.list({ limit: 2 });
    expect(top.map((r) => [r.id, r.status, r.messageCount])).toEqual(expected);
    await held.close();
    // A session created by the other writer.
    const fresh = await other.create({ title: 'fresh' });
    await fresh.append({ role: 'user', content: 'new' });
    await fresh.close();
    expect((await sessions.list({ limit: 1 })).map((r) => r.id)).toEqual([fresh.id]);
    expect((await sessions.latest())?.id).toBe(fresh.id);
  });

  it('fills the screenful past sessions that hold no message, and applies filters before the limit', async () => {
    const { sessions, ids } = await populate(tmpHome(), tmpHome(), 5);
    const empty = await sessions.create({ title: 'empty' });
    await empty.close();
    await settle(sessions);
    expect((await sessions.list({ limit: 2 })).map((r) => r.id)).toEqual([ids[4], ids[3]]);
    expect((await sessions.list({ limit: 2, query: 's1' })).map((r) => r.id)).toEqual([ids[1]]);
    await expect(sessions.list({ limit: 0 })).rejects.toThrow(/limit/);
  });
});

describe('the head of index.json', () => {
  const rows: IndexRow[] = Array.from({ length: 1_000 }, (_, i) => ({
    id: `row-${String(i).padStart(4, '0')}`, title: `a title that takes some room ${i}`, createdAt: start - i, updatedAt: start - i,
    messageCount: 1, status: 'closed', journalSeq: 0, project: '/p',
  }) as unknown as IndexRow);

  it('has a body that is one JSON document, saying its own length', () => {
    const text = indexBody(42, rows, freshLog()).toString('utf8');
    const parsed = JSON.parse(text) as { format: string; version: number; sessionsMtimeMs: number; bodyBytes: number; rows: IndexRow[] };
    expect(parsed).toMatchObject({ format: 'chatkeep.index', version: 3, sessionsMtimeMs: 42, bodyBytes: Buffer.byteLength(text) });
    expect(parsed.rows).toEqual(rows);
  });

  it('gives the newest rows when current and within reach, else nothing (the caller reads it all)', async () => {
    const path = join(tmpHome(), 'index.json');
    writeFileSync(path, indexBody(42, rows, freshLog()));
    expect(await readIndexHead(path, 5, 42)).toEqual(rows.slice(0, 5));
    expect(await readIndexHead(path, 5, 43)).toBeUndefined(); // stale
    expect(await readIndexHead(path, 900, 42)).toBeUndefined(); // past the head
    // A row to refresh far down the file: the head must reach it, or the caller reads all.
    const live = rows.map((r, i) => (i === 950 ? { ...r, status: 'open' as const } : r));
    writeFileSync(path, indexBody(42, live, freshLog()));
    expect(await readIndexHead(path, 5, 42)).toBeUndefined();
    const near = rows.map((r, i) => (i === 7 ? { ...r, status: 'open' as const } : r));
    writeFileSync(path, indexBody(42, near, freshLog()));
    expect(await readIndexHead(path, 5, 42)).toEqual(near.slice(0, 8));
    writeFileSync(path, JSON.stringify({ format: 'chatkeep.index', version: 2, sessionsMtimeMs: 42, rows })); // an older build's file
    expect(await readIndexHead(path, 5, 42)).toBeUndefined();
  });
});
