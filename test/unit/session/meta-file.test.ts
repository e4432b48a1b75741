import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import type { SessionManager } from '../../../src/index.js';
import { openSessions } from '../../../src/index.js';
import { atomicWriteHooks } from '../../../src/store/file/atomic-write.js';
import { layout } from '../../../src/store/file/layout.js';
import { copySessions } from '../../../src/session/runtime/copy.js';

const plain = (rows: Awaited<ReturnType<SessionManager['list']>>) => rows.map((r) => ({ ...r }));

/** Sessions of 1, 2 and 3 messages, closed, with titles, at distinct times. */
async function closedSessions(): Promise<{ sessions: SessionManager; ids: string[] }> {
  let clock = Date.parse('2026-11-20T08:00:00.000Z');
  const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome(), now: () => new Date((clock += 1000)) });
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    const s = await sessions.create({ title: `session of ${n}` });
    for (let i = 0; i < n; i++) await s.append({ role: 'user', content: `message ${i}` });
    await s.close();
    ids.push(s.id);
  }
  return { sessions, ids };
}

const metaPath = (sessions: SessionManager, id: string) => join(layout.project(sessions.store.location, sessions.project.key), 'sessions', id, 'session.meta.json');
const dropIndex = (sessions: SessionManager) => rmSync(join(layout.project(sessions.store.location, sessions.project.key), 'index.json'), { force: true });
const dropMetas = (sessions: SessionManager, ids: string[]) => ids.forEach((id) => rmSync(metaPath(sessions, id), { force: true }));
/** Session `id`'s row as a listing rebuilds it with index.json gone. */
async function rebuiltRow(sessions: SessionManager, id: string) {
  dropIndex(sessions);
  return (await sessions.list()).find((r) => r.id === id);
}

describe('session.meta.json, the listing row beside the snapshot', () => {
  it('is written with every snapshot and holds the session\'s row', async () => {
    const { sessions, ids } = await closedSessions();
    const meta = JSON.parse(readFileSync(metaPath(sessions, ids[1]), 'utf8')) as { format: string; row: Record<string, unknown> };
    expect(meta.format).toBe('chatkeep.meta');
    expect(meta.row).toMatchObject({ id: ids[1], title: 'session of 2', messageCount: 2, status: 'closed' });
    // Written whole then renamed: no temp file is left beside it.
    expect(readdirSync(join(layout.project(sessions.store.location, sessions.project.key), 'sessions', ids[1])).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('rebuilds a missing index from meta files to the same rows as from the snapshots alone', async () => {
    const { sessions, ids } = await closedSessions();
    dropIndex(sessions);
    const fromMeta = plain(await sessions.list());
    dropIndex(sessions);
    dropMetas(sessions, ids); // sessions written before meta files existed
    const fromSnapshots = plain(await sessions.list());
    expect(fromMeta).toEqual(fromSnapshots);
    expect(fromSnapshots.map((r) => [r.title, r.messageCount, r.status])).toEqual([
      ['session of 3', 3, 'closed'],
      ['session of 2', 2, 'closed'],
      ['session of 1', 1, 'closed'],
    ]);
  });

  it('falls back to the snapshot when the meta file is damaged, of another session, or a directory', async () => {
    const { sessions, ids } = await closedSessions();
    const truth = plain(await sessions.list());

    writeFileSync(metaPath(sessions, ids[0]), '{"format":"chatkeep.meta","version":1,"row":{"id":');
    copyFileSync(metaPath(sessions, ids[2]), metaPath(sessions, ids[1])); // a row for another ID
    rmSync(metaPath(sessions, ids[2]));
    mkdirSync(metaPath(sessions, ids[2]));
    dropIndex(sessions);
    expect(plain(await sessions.list())).toEqual(truth);

    // Saving over a directory where the meta file belongs still saves the snapshot.
    const again = await sessions.resume(ids[2]);
    await again.append({ role: 'user', content: 'one more' });
    await again.close();
    expect(await rebuiltRow(sessions, ids[2])).toMatchObject({ messageCount: 4 });
  });

  it('is gone while a new snapshot goes in: a crash there leaves no meta file describing the old one', async () => {
    const { sessions, ids } = await closedSessions();
    const held = await sessions.resume(ids[1]);
    await held.append({ role: 'user', content: 'saved' });
    await held.save(); // a new snapshot and its meta file
    expect(existsSync(metaPath(sessions, ids[1]))).toBe(true);
    await held.append({ role: 'user', content: 'only in the journal' });
    let metaAtRename: boolean | undefined;
    atomicWriteHooks.beforeRename = (_tmp, target) => {
      if (!target.endsWith('session.json')) return;
      metaAtRename = existsSync(metaPath(sessions, ids[1]));
      throw new Error('killed before the rename');
    };
    try {
      await expect(held.save()).rejects.toThrow('killed before the rename');
    } finally {
      delete atomicWriteHooks.beforeRename;
    }
    expect(metaAtRename).toBe(false);
    await simulateCrash(held);
    expect(await rebuiltRow(sessions, ids[1])).toMatchObject({ status: 'interrupted', messageCount: 4 });
  });

  it('is removed while a session is resumed, so a rebuild sees it open, and interrupted after a crash', async () => {
    const { sessions, ids } = await closedSessions();
    const held = await sessions.resume(ids[0]);
    expect(existsSync(metaPath(sessions, ids[0]))).toBe(false);
    expect(await rebuiltRow(sessions, ids[0])).toMatchObject({ status: 'open' });

    await held.append({ role: 'user', content: 'only in the journal' });
    await simulateCrash(held);
    expect(await rebuiltRow(sessions, ids[0])).toMatchObject({ status: 'interrupted', messageCount: 2 });
  });

  it('a resumed session closed unchanged gets its meta file back', async () => {
    const { sessions, ids } = await closedSessions();
    const again = await sessions.resume(ids[1]);
    await again.close();
    expect(JSON.parse(readFileSync(metaPath(sessions, ids[1]), 'utf8'))).toMatchObject({ row: { id: ids[1], status: 'closed' } });
  });

  it('creating or resuming a session does not rebuild a missing index (only a listing does)', async () => {
    const { sessions, ids } = await closedSessions();
    dropIndex(sessions);
    const index = join(layout.project(sessions.store.location, sessions.project.key), 'index.json');
    const fresh = await sessions.create();
    await fresh.append({ role: 'user', content: 'hi' });
    await fresh.close();
    const resumed = await sessions.resume(ids[0]);
    await resumed.append({ role: 'user', content: 'hi' });
    await resumed.close();
    expect(existsSync(index)).toBe(false);
    expect(plain(await sessions.list()).map((r) => r.id)).toEqual([resumed.id, fresh.id, ids[2], ids[1]]);
  });

  it('a session stored whole (an import, a copy) has none: its row is in the index, and a rebuild reads the snapshot', async () => {
    const { sessions: from, ids } = await closedSessions();
    const to = await openSessions({ home: tmpHome(), cwd: from.project.path });
    expect((await copySessions(from, to, ids)).copied).toBe(3);
    expect(ids.filter((id) => existsSync(metaPath(to, id)))).toEqual([]);
    const listed = plain(await to.list());
    expect(listed.map((r) => [r.title, r.messageCount, r.status])).toEqual([
      ['session of 3', 3, 'closed'],
      ['session of 2', 2, 'closed'],
      ['session of 1', 1, 'closed'],
    ]);
    dropIndex(to);
    expect(plain(await to.list())).toEqual(listed);
  });

  it('writes a rebuilt index row for row as it would from the rows themselves, one line each', async () => {
    const { sessions } = await closedSessions();
    const truth = plain(await sessions.list());
    dropIndex(sessions);
    expect(plain(await sessions.list())).toEqual(truth);
    const index = readFileSync(join(layout.project(sessions.store.location, sessions.project.key), 'index.json'), 'utf8');
    const lines = index.split('\n').slice(1, 4).map((line) => line.replace(/,$/, ''));
    const rows = (JSON.parse(index) as { rows: unknown[] }).rows;
    expect(rows).toHaveLength(3);
    expect(lines).toEqual(rows.map((r) => JSON.stringify(r)));
  });

  it('reads a meta file written otherwise (by hand, spread over lines, a key twice) as JSON reads it', async () => {
    const { sessions, ids } = await closedSessions();
    const read = (id: string) => JSON.parse(readFileSync(metaPath(sessions, id), 'utf8')) as { row: Record<string, unknown> };
    const [first, second, third] = ids.map(read);
    // Spread over lines: the row is the same, and index.json still has one row a line.
    writeFileSync(metaPath(sessions, ids[0]), JSON.stringify({ ...first, row: { ...first!.row, title: 'spread' } }, null, 2));
    // The row twice: JSON keeps the last.
    writeFileSync(metaPath(sessions, ids[1]), `{"format":"chatkeep.meta","version":1,"row":${JSON.stringify(second!.row)},"row":${JSON.stringify({ ...second!.row, title: 'the last' })}}`);
    // A line break inside the row's text, in a string's escape and as white space.
    writeFileSync(metaPath(sessions, ids[2]), `{"format":"chatkeep.meta","version":1,"row":${JSON.stringify({ ...third!.row, title: 'two\nlines' }).replace(',', ',\r\n')}}`);
    dropIndex(sessions);
    const rows = plain(await sessions.list());
    expect(rows.map((r) => r.title)).toEqual(['two\nlines', 'the last', 'spread']);
    // A new listing reads the index it wrote, whole and by its head: the same rows.
    expect(plain(await sessions.list())).toEqual(rows);
    expect(plain(await sessions.list({ limit: 2 }))).toEqual(rows.slice(0, 2));
    const index = readFileSync(join(layout.project(sessions.store.location, sessions.project.key), 'index.json'), 'utf8');
    expect(index.split('\n').slice(1, 4).map((line) => (JSON.parse(line.replace(/,$/, '')) as { title: string }).title)).toEqual(['two\nlines', 'the last', 'spread']);
  });
});
