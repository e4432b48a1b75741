/**
 * The file store's search reads from index.json's header what changed since its index was last
 * brought up to date (index-log.ts, search-sync.ts), and compares every row whenever it cannot
 * vouch for that: a header an older build wrote, another epoch, a log that does not reach back.
 * Whichever way, a search answers as it would from the sessions themselves.
 */
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions, type SessionManager } from '../../../src/index.js';
import { layout } from '../../../src/store/file/layout.js';
import { indexOnDisk } from '../../helpers/session-files.js';
import { changedSince, freshLog, nextLog } from '../../../src/store/file/index-log.js';

async function said(sessions: SessionManager, ...messages: string[]): Promise<string> {
  const s = await sessions.create();
  for (const content of messages) await s.append({ role: 'user', content });
  await s.close();
  return s.id;
}

const ids = (found: { results: { session: { id: string } }[] }) => found.results.map((r) => r.session.id).sort();

describe('index.json logs its writes', () => {
  it('names what changed after a serial, and says nothing for another epoch or a serial the log no longer reaches', () => {
    let log = freshLog();
    log = nextLog(log, ['a']);
    log = nextLog(log, ['b', 'c']);
    log = nextLog(log, []);
    expect([...changedSince(log, log.epoch, 0)!]).toEqual(['a', 'b', 'c']);
    expect([...changedSince(log, log.epoch, 1)!]).toEqual(['b', 'c']);
    expect([...changedSince(log, log.epoch, 3)!]).toEqual([]);
    expect(changedSince(log, 'another', 1)).toBeUndefined();
    // Past 256 IDs the oldest writes are dropped: a reader that saw only those compares every row.
    const many = nextLog(log, Array.from({ length: 255 }, (_, i) => `s${i}`));
    expect(changedSince(many, log.epoch, 1)).toBeUndefined();
    expect(changedSince(many, log.epoch, 2)!.size).toBe(255);
    // A write of more IDs than the log holds restarts it.
    const batch = nextLog(many, Array.from({ length: 300 }, (_, i) => `t${i}`));
    expect(changedSince(batch, log.epoch, many.serial)).toBeUndefined();
    expect(changedSince(batch, log.epoch, batch.serial)!.size).toBe(0);
    // A header without a log (an older build's) starts a new one.
    expect(nextLog(undefined, ['a']).epoch).not.toBe(log.epoch);
  });
});

describe('the file store search, brought up to date from the log', () => {
  it('finds what another process wrote since, forgets what it moved to the trash, and answers the same once an older build rewrote index.json', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const here = await openSessions({ home, cwd });
    const there = await openSessions({ home, cwd });
    const a = await said(here, 'apple one');
    const b = await said(here, 'banana two');
    const c = await said(here, 'cherry three');
    expect((await here.search('apple')).index[0]).toMatchObject({ state: 'missing' });
    // The sessions directory's mtime settled (as seconds later), the listing records it; the next search records its mark against it.
    const projectDir = layout.project(here.store.location, here.project.key);
    const past = new Date(Date.now() - 10_000);
    utimesSync(layout.sessions(projectDir), past, past);
    await here.list();
    await here.search('apple');
    expect(existsSync(layout.searchSync(projectDir))).toBe(true);

    // Another process: a turn on an old session; the search here reads it again, and only it.
    const resumed = await there.resume(b);
    await resumed.append({ role: 'user', content: 'a durian now' });
    await resumed.close();
    const durian = await here.search('durian');
    expect(ids(durian)).toEqual([b]);
    expect(durian.index[0]).toMatchObject({ state: 'stale', reindexed: 1 });
    expect(durian.results[0]!.session.messageCount).toBe(2);
    expect((await here.search('durian')).index[0]).toMatchObject({ state: 'fresh', reindexed: 0 });

    // Moved to the trash by the other process: no longer found, nor counted.
    await there.trash(a);
    const gone = await here.search('one');
    expect(ids(gone)).toEqual([]);
    expect(gone.total).toBe(0);

    // An older build rewrites index.json without the log, a turn on `c` with it: compared row by row, still found.
    const again = await there.resume(c);
    await again.append({ role: 'user', content: 'an elderberry' });
    await again.close();
    const index = layout.index(projectDir);
    const whole = await indexOnDisk(index);
    writeFileSync(index, JSON.stringify({ format: 'chatkeep.index', version: 2, sessionsMtimeMs: whole.sessionsMtimeMs, rows: whole.rows }));
    const elder = await here.search('elderberry');
    expect(ids(elder)).toEqual([c]);
    expect(ids(await here.search('durian'))).toEqual([b]);
    await Promise.all([here.close(), there.close()]);
  });
});
