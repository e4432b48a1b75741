import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { layout } from '../../../src/store/file/layout.js';

/** A fresh home whose one session holds one message, 'a kumquat and a quince'. */
async function oneSessionHome(): Promise<{ home: string; cwd: string; sessions: Awaited<ReturnType<typeof openSessions>> }> {
  const home = tmpHome();
  const cwd = tmpHome('chatkeep-project-');
  const sessions = await openSessions({ home, cwd });
  const s = await sessions.create();
  await s.append({ role: 'user', content: 'a kumquat and a quince' });
  await s.close();
  return { home, cwd, sessions };
}

describe('the file store search index', () => {
  it('keeps what changed since the base in a recent file, wins over the base, and folds it in once it grows', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const sessions = await openSessions({ home, cwd, now: () => new Date((clock += 1000)) });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const s = await sessions.create({ title: `topic ${i}` });
      await s.append({ role: 'user', content: `session ${i} talks about ${'filler words '.repeat(20)}` });
      ids.push(s.id);
      await s.close();
    }
    expect((await sessions.search('filler')).index[0]).toMatchObject({ state: 'missing', reindexed: 8 });
    const base = join(layout.project(sessions.store.location, sessions.project.key), 'search.idx');
    const recent = join(layout.project(sessions.store.location, sessions.project.key), 'search.recent.idx');
    const baseBytes = readFileSync(base);

    const changed = await sessions.resume(ids[2]!);
    await changed.append({ role: 'user', content: 'a word about pomegranates' });
    await changed.setTitle('renamed');
    await changed.close();
    const found = await sessions.search('pomegranate');
    expect(found.index[0]).toMatchObject({ state: 'stale', reindexed: 1 });
    expect(found.results.map((r) => r.session.id)).toEqual([ids[2]]);
    expect(found.results[0]!.snippet?.text).toBe('a word about pomegranates');
    // The base was not rewritten; the recent file's entry wins over the base's (its old title is gone).
    expect(readFileSync(base).equals(baseBytes)).toBe(true);
    expect(existsSync(recent)).toBe(true);
    expect((await sessions.search('topic 2')).total).toBe(0);
    expect((await sessions.search('renamed')).results.map((r) => r.session.id)).toEqual([ids[2]]);
    expect((await sessions.search('session 2 talks')).results.map((r) => r.session.id)).toEqual([ids[2]]);

    // Several more changed sessions: the recent file outgrows a quarter of the base and is folded in.
    for (const id of ids.slice(3, 6)) {
      const s = await sessions.resume(id);
      await s.append({ role: 'user', content: `pomegranate ${'and more '.repeat(30)}` });
      await s.close();
    }
    const folded = await sessions.search('pomegranate');
    expect(folded.index[0]).toMatchObject({ state: 'stale', reindexed: 3 });
    expect(folded.results.map((r) => r.session.id).sort()).toEqual(ids.slice(2, 6).sort());
    expect(existsSync(recent)).toBe(false);
    expect(readFileSync(base).equals(baseBytes)).toBe(false);
    expect((await sessions.search('pomegranate')).index[0]!.state).toBe('fresh');
  });

  it('one process searching again keeps the index in memory only while the file is the one it read: deleted, damaged or rewritten, it is read again', async () => {
    const { home, cwd, sessions } = await oneSessionHome();
    const base = join(layout.project(sessions.store.location, sessions.project.key), 'search.idx');
    expect((await sessions.search('kumquat')).index[0]).toMatchObject({ state: 'missing', reindexed: 1 });
    // Typed on from the last query (narrowed to its hits) and back: found as a fresh search finds it.
    for (const query of ['q', 'qu', 'quince', 'qu', 'kumquat and']) expect((await sessions.search(query)).total).toBe(1);
    expect((await sessions.search('quinces')).total).toBe(0);
    expect((await sessions.search('kumquat')).index[0]!.state).toBe('fresh');
    rmSync(base);
    expect((await sessions.search('kumquat')).index[0]).toMatchObject({ state: 'missing', reindexed: 1 });
    writeFileSync(base, 'CKSEARCH but not really');
    const damaged = await sessions.search('kumquat');
    expect(damaged.index[0]).toMatchObject({ state: 'damaged', reindexed: 1 });
    expect(damaged.total).toBe(1);
    // Another process's index (here: of other sessions, written in place of this one) is read, not the one in memory.
    const other = await openSessions({ home: tmpHome(), cwd });
    const t = await other.create();
    await t.append({ role: 'user', content: 'only a fig' });
    await t.close();
    await other.search('fig');
    writeFileSync(base, readFileSync(join(layout.project(other.store.location, other.project.key), 'search.idx')));
    const replaced = await sessions.search('kumquat');
    expect([replaced.index[0]!.state, replaced.total]).toEqual(['stale', 1]);
    expect((await sessions.search('fig')).total).toBe(0);
  });
  it('never trusts a search index whose bytes changed in place or were cut short: it is rebuilt and the search is still right', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home, cwd });
    for (const text of ['a kumquat and a quince', 'only a fig', 'figs and a kumquat']) {
      const s = await sessions.create();
      await s.append({ role: 'user', content: text });
      await s.close();
    }
    expect((await sessions.search('kumquat')).total).toBe(2);
    const base = join(layout.project(sessions.store.location, sessions.project.key), 'search.idx');
    // The same size, one letter changed: in the word list (its postings would now miss), then in the folded text.
    const changes: [string, (bytes: Buffer) => Buffer][] = [
      ['word list', (bytes) => flip(bytes, bytes.indexOf('kumquat'))],
      ['text', (bytes) => flip(bytes, bytes.indexOf('kumquat', bytes.indexOf('kumquat') + 1))],
      ['cut short', (bytes) => bytes.subarray(0, bytes.length - 1)],
    ];
    for (const [what, change] of changes) {
      writeFileSync(base, change(readFileSync(base)));
      // In another process, which has nothing of it in memory.
      const fresh = await openSessions({ home, cwd });
      const found = await fresh.search('kumquat');
      expect({ what, state: found.index[0]!.state, total: found.total }).toEqual({ what, state: 'damaged', total: 2 });
      expect((await fresh.search('kumquat')).index[0]!.state).toBe('fresh');
    }
  });

  it('checks every block a search reads: a garbled byte in the message it shows or the text it scans is found, the file rebuilt, the answer right', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home, cwd });
    // Enough sessions for many blocks; the word in one message only, written capitalised (its original) and folded (its text).
    for (let i = 0; i < 40; i++) {
      const s = await sessions.create({ title: `topic ${i}` });
      await s.append({ role: 'user', content: `${i === 17 ? 'a Kumquat grows here, ' : ''}${'plain filler words of no interest '.repeat(60)}` });
      await s.close();
    }
    const first = await sessions.search('kumquat');
    expect(first.results[0]!.snippet?.text).toContain('a Kumquat grows here');
    const base = join(layout.project(sessions.store.location, sessions.project.key), 'search.idx');
    const changes: [string, (bytes: Buffer) => Buffer][] = [
      // The message as written, read only for the snippet shown.
      ['original', (bytes) => flip(bytes, bytes.indexOf('Kumquat'))],
      // Its folded text, read only because the word's postings name that message.
      ['text', (bytes) => flip(bytes, bytes.lastIndexOf('kumquat'))],
    ];
    for (const [what, change] of changes) {
      writeFileSync(base, change(readFileSync(base)));
      const fresh = await openSessions({ home, cwd });
      const found = await fresh.search('kumquat');
      expect({ what, state: found.index[0]!.state, total: found.total, snippet: found.results[0]?.snippet?.text.includes('a Kumquat grows here') }).toEqual({
        what,
        state: 'damaged',
        total: 1,
        snippet: true,
      });
      expect(found.index[0]!.detail).toMatch(/checksum/);
      expect((await fresh.search('kumquat')).index[0]!.state).toBe('fresh');
    }
  });

  it('rebuilds a file of a newer version, saying so, rather than read it as its own; an older one silently', async () => {
    const { home, cwd, sessions } = await oneSessionHome();
    await sessions.search('kumquat');
    const base = join(layout.project(sessions.store.location, sessions.project.key), 'search.idx');
    const version = readFileSync(base).readUInt32LE(8);
    for (const [other, state] of [[version + 1, 'damaged'], [version - 1, 'missing']] as const) {
      const bytes = readFileSync(base);
      bytes.writeUInt32LE(other, 8);
      writeFileSync(base, bytes);
      const found = await (await openSessions({ home, cwd })).search('kumquat');
      expect({ other, state: found.index[0]!.state, total: found.total }).toEqual({ other, state, total: 1 });
      expect(readFileSync(base).readUInt32LE(8)).toBe(version);
    }
  });
});

/** The bytes with the one at `at` changed (an ASCII letter to the next). */
function flip(bytes: Buffer, at: number): Buffer {
  expect(at).toBeGreaterThanOrEqual(0);
  const out = Buffer.from(bytes);
  out[at] = out[at]! + 1;
  return out;
}
