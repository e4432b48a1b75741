import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import type { SessionManager } from '../../../src/index.js';
import { AmbiguousIdError, openSessions, UnknownSessionError } from '../../../src/index.js';
import { layout } from '../../../src/store/file/layout.js';
import { indexOnDisk } from '../../helpers/session-files.js';

/** Three sessions at distinct, known times: two closed, one left open by a "crash". */
async function populate(home: string, cwd: string): Promise<{ sessions: SessionManager; ids: string[] }> {
  let clock = Date.parse('2026-11-20T08:00:00.000Z');
  const sessions = await openSessions({ home, cwd, now: () => new Date((clock += 1000)) });
  const ids: string[] = [];
  for (const [title, n] of [['alpha auth', 1], ['beta', 2], ['gamma AUTH fix', 3]] as const) {
    const s = await sessions.create({ title });
    for (let i = 0; i < n; i++) await s.append({ role: 'user', content: `${title} ${i}` });
    if (title === 'beta') {
      // Crash: lock and journal dropped without close.
      await simulateCrash(s);
    } else {
      await s.close();
    }
    ids.push(s.id);
  }
  return { sessions, ids };
}

const plain = (rows: Awaited<ReturnType<SessionManager['list']>>) => rows.map((r) => ({ ...r }));

describe('the session index', () => {
  it('lists newest first with counts, titles and statuses (interrupted shown)', async () => {
    const { sessions, ids } = await populate(tmpHome(), tmpHome());
    const rows = await sessions.list();
    expect(rows.map((r) => [r.id, r.title, r.messageCount, r.status])).toEqual([
      [ids[2], 'gamma AUTH fix', 3, 'closed'],
      [ids[1], 'beta', 2, 'interrupted'],
      [ids[0], 'alpha auth', 1, 'closed'],
    ]);
    expect((await sessions.list({ query: 'auth' })).map((r) => r.id)).toEqual([ids[2], ids[0]]);
    expect((await sessions.list({ query: ids[1].slice(-6) })).map((r) => r.id)).toEqual([ids[1]]);
    expect((await sessions.latest())?.id).toBe(ids[2]);
  });

  it('lists token usage from snapshots and from the journal of a crashed session; a reset clears it', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const saved = await sessions.create();
    await saved.append({ role: 'user', content: 'q' });
    await saved.append({ role: 'assistant', content: 'a', usage: { inputTokens: 10, outputTokens: 4 } });
    await saved.close();
    const crashed = await sessions.create();
    await crashed.append({ role: 'assistant', content: 'b', usage: { inputTokens: 7, outputTokens: 3 } });
    await simulateCrash(crashed); // only the journal holds this usage
    const usage = async () => Object.fromEntries((await sessions.list()).map((r) => [r.id, r.usage]));
    expect(await usage()).toEqual({
      [saved.id]: { inputTokens: 10, outputTokens: 4 },
      [crashed.id]: { inputTokens: 7, outputTokens: 3 },
    });
    const again = await sessions.resume(saved.id);
    await again.reset();
    await again.close();
    expect((await usage())[saved.id]).toBeUndefined();
  });

  it('rebuilds a deleted, damaged or stale index, and the listing equals the rebuilt truth', async () => {
    const { sessions } = await populate(tmpHome(), tmpHome());
    const truth = plain(await sessions.list());
    const index = join(layout.project(sessions.store.location, sessions.project.key), 'index.json');

    rmSync(index);
    expect(plain(await sessions.list())).toEqual(truth);
    expect(readFileSync(index, 'utf8')).toContain('"chatkeep.index"');

    writeFileSync(index, '{"format":"chatkeep.index","rows":[{"id":');
    expect(plain(await sessions.list())).toEqual(truth);
    expect(readdirSync(layout.project(sessions.store.location, sessions.project.key)).filter((n) => n.startsWith('index.json.corrupt-'))).toHaveLength(1);

    // Stale: a session directory appeared behind the index's back (another tool, a restore).
    const extra = await sessions.create({ title: 'restored' });
    await extra.append({ role: 'user', content: 'x' });
    await extra.close();
    const withExtra = plain(await sessions.list());
    // Written back as one JSON document, as an older build writes it.
    const parsed = await indexOnDisk(index);
    parsed.rows = parsed.rows.filter((r) => r.id !== extra.id);
    parsed.sessionsMtimeMs -= 5000;
    writeFileSync(index, JSON.stringify(parsed));
    expect(plain(await sessions.list())).toEqual(withExtra);

    // Stale the other way: a session directory moved out (to trash) disappears from the listing.
    mkdirSync(join(sessions.home, 'trash'), { recursive: true });
    renameSync(extra.where.files!.dir, join(sessions.home, 'trash', extra.id));
    const sessionsDir = join(layout.project(sessions.store.location, sessions.project.key), 'sessions');
    utimesSync(sessionsDir, new Date(), new Date(Date.now() + 10_000));
    expect(plain(await sessions.list())).toEqual(truth);

    rmSync(index);
    expect(plain(await sessions.list())).toEqual(truth);
  });

  it('lists from the session files when the index cannot be read or written', async () => {
    const { sessions } = await populate(tmpHome(), tmpHome());
    const truth = plain(await sessions.list());
    const index = join(layout.project(sessions.store.location, sessions.project.key), 'index.json');
    rmSync(index);
    mkdirSync(index); // unreadable as a file, and nothing can be renamed over it
    expect(plain(await sessions.list())).toEqual(truth);
    expect(readdirSync(index)).toEqual([]);
    expect(readdirSync(layout.project(sessions.store.location, sessions.project.key)).filter((n) => n.includes('corrupt'))).toEqual([]);
  });

  it('a listing reads the index, not the sessions', async () => {
    const { sessions, ids } = await populate(tmpHome(), tmpHome());
    await sessions.list();
    // Make a closed session's files unreadable as sessions: the listing must not notice.
    writeFileSync(join(layout.project(sessions.store.location, sessions.project.key), 'sessions', ids[0], 'session.json'), 'not read by list');
    expect((await sessions.list()).find((r) => r.id === ids[0])).toMatchObject({ title: 'alpha auth', messageCount: 1 });
  });

  it('keeps colliding slugs as separate projects and lists across them with --all', async () => {
    const base = tmpHome();
    mkdirSync(join(base, 'a-b'));
    mkdirSync(join(base, 'a', 'b'), { recursive: true });
    const home = tmpHome();
    // Both opened before either has a session: each project is named for good by its first write.
    const one = await openSessions({ home, cwd: join(base, 'a-b') });
    const two = await openSessions({ home, cwd: join(base, 'a', 'b') });
    const s1 = await one.create({ title: 'in a-b' });
    await s1.append({ role: 'user', content: 'hello' });
    await s1.close();
    const s2 = await two.create({ title: 'in a/b' });
    await s2.append({ role: 'user', content: 'hello' });
    await s2.close();
    expect(layout.project(one.store.location, one.project.key)).not.toBe(layout.project(two.store.location, two.project.key));
    expect(two.project.key.startsWith(one.project.key)).toBe(true);
    expect((await one.list()).map((r) => r.title)).toEqual(['in a-b']);
    expect((await two.list()).map((r) => r.title)).toEqual(['in a/b']);
    const all = await one.list({ all: true });
    expect(all.map((r) => [r.title, r.project]).sort()).toEqual([
      ['in a-b', join(base, 'a-b')],
      ['in a/b', join(base, 'a', 'b')],
    ]);
    // Opening the same path again finds the same project.
    expect((await openSessions({ home, cwd: join(base, 'a', 'b') })).project.key).toBe(two.project.key);
  });

  it('moves a damaged project.json aside instead of overwriting it', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const first = await openSessions({ home, cwd });
    await (await first.create()).close();
    const file = join(layout.project(first.store.location, first.project.key), 'project.json');
    writeFileSync(file, '{"path": ');
    const again = await openSessions({ home, cwd });
    expect(layout.project(again.store.location, again.project.key)).toBe(layout.project(first.store.location, first.project.key));
    // Opening reads; the next write claims the project again, keeping the damaged file.
    expect(readFileSync(file, 'utf8')).toBe('{"path": ');
    await (await again.create()).close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'chatkeep.project', path: cwd });
    const aside = readdirSync(layout.project(first.store.location, first.project.key)).filter((n) => n.startsWith('project.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(layout.project(first.store.location, first.project.key), aside[0]), 'utf8')).toBe('{"path": ');
  });

  it('claims a project whose project.json is damaged when a session of it is resumed there, so no listing hides it', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const first = await openSessions({ home, cwd });
    const s = await first.create();
    await s.append({ role: 'user', content: 'kept' });
    await s.close();
    const dir = layout.project(first.store.location, first.project.key);
    writeFileSync(join(dir, 'project.json'), '{"path": 42');
    const elsewhere = await openSessions({ home, cwd: tmpHome() });
    // Until then, no other directory's listing can say whose sessions these are.
    expect((await elsewhere.list({ all: true })).map((r) => r.id)).toEqual([]);
    const resumed = await (await openSessions({ home, cwd })).resume(s.id);
    await resumed.close();
    expect(JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8'))).toMatchObject({ format: 'chatkeep.project', path: cwd });
    const aside = readdirSync(dir).filter((n) => n.startsWith('project.json.corrupt-'));
    expect(aside.map((n) => readFileSync(join(dir, n), 'utf8'))).toEqual(['{"path": 42']);
    expect((await elsewhere.list({ all: true })).map((r) => ({ id: r.id, project: r.project }))).toEqual([{ id: s.id, project: cwd }]);
  });

  it('resolves IDs and unique prefixes across projects, and says which project', async () => {
    const home = tmpHome();
    const here = await openSessions({ home, cwd: tmpHome(), now: () => new Date('2026-11-21T09:00:00.000Z') });
    const there = await openSessions({ home, cwd: tmpHome(), now: () => new Date('2026-11-21T10:00:00.000Z') });
    const a = await here.create();
    await a.append({ role: 'user', content: 'hello' });
    await a.close();
    const b = await there.create();
    await b.append({ role: 'user', content: 'hello' });
    await b.close();
    expect(await here.resolve(b.id)).toEqual({ id: b.id, project: there.project.path, location: b.where.files!.snapshot });
    expect((await here.resolve('session-20261121-10')).id).toBe(b.id);
    const err = await here.resolve('session-20261121').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AmbiguousIdError);
    expect((err as Error).message).toBe(
      `Session ID prefix \`session-20261121\` matches 2 sessions (${a.id}, ${b.id}): type more of it.`,
    );
    await expect(here.resolve('session-1999')).rejects.toBeInstanceOf(UnknownSessionError);
    const resumed = await here.resume('session-20261121-1');
    expect(resumed.resumeReport.otherProject).toBe(there.project.path);
    expect(resumed.project.path).toBe(there.project.path);
    await resumed.close();
  });
});
