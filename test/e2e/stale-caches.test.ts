/**
 * The listing caches lose to the snapshot (docs/design.md §8): with an older good snapshot put back by
 * hand under the meta file and index row of a later one, `sessions list` shows the session as the
 * snapshot says and rewrites both caches, and `sessions doctor` says which cache it found stale and
 * rewrites it. File store.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, type RunOptions } from '../helpers/pty.js';
import { indexOnDisk, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

type Row = { id: string; title: string | null; messageCount: number };

async function listed(options: RunOptions): Promise<Row[]> {
  const r = await runPiped(['sessions', 'list', '--json'], '', options);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/**
 * A session of two exchanges titled `one` (its snapshot kept), then resumed: a third exchange
 * and a new title, quit. Its meta file and index row now describe the later snapshot; the
 * earlier snapshot and journal are put back by hand, as a person restores a backup.
 */
async function olderSnapshotPutBack(options: RunOptions & { home: string }, before?: (id: string) => Promise<void>): Promise<{ id: string; dir: string; index: string }> {
  const first = await runPiped([], 'one\ntwo\n/quit\n', options);
  expect(first.code, first.stderr).toBe(0);
  const id = /Saved (\S+) \(4 messages\)/.exec(first.stderr)![1]!;
  const dir = sessionDir(options.home, id)!;
  // The whole session as it was: its snapshot and its journal (whose later events would replay onto it).
  const files = ['session.json', 'journal.jsonl'].map((name) => [join(dir, name), readFileSync(join(dir, name))] as const);
  const later = await runPiped(['--session-id', id], 'three\n/title Later title\n/quit\n', options);
  expect(later.stderr).toContain(`Saved ${id} (6 messages)`);
  expect(await listed(options)).toEqual([expect.objectContaining({ id, title: 'Later title', messageCount: 6 })]);
  await before?.(id);
  for (const [path, bytes] of files) writeFileSync(path, bytes);
  return { id, dir, index: join(dirname(dirname(dir)), 'index.json') };
}

function metaRow(dir: string): Row {
  return (JSON.parse(readFileSync(join(dir, 'session.meta.json'), 'utf8')) as { row: Row }).row;
}

async function indexRow(index: string, id: string): Promise<Row | undefined> {
  return (await indexOnDisk(index)).rows.find((r) => r.id === id);
}

describe('stale listing caches lose to the snapshot', () => {
  it('sessions list shows a snapshot put back by hand as it is, and rewrites the meta file and index row', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { id, dir, index } = await olderSnapshotPutBack(options);
    const text = await runPiped(['sessions', 'list'], '', options);
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toMatch(new RegExp(`^ {2}${id} .* 4 messages .* one\\n$`));
    expect(metaRow(dir)).toMatchObject({ title: 'one', messageCount: 4 });
    expect(await indexRow(index, id)).toMatchObject({ title: 'one', messageCount: 4 });
    // The listing fixed what the doctor would have: nothing left for it.
    const doctor = await runPiped(['sessions', 'doctor', '--json'], '', options);
    expect([doctor.code, JSON.parse(doctor.stdout)]).toEqual([0, { fixed: [], sessions: [] }]);
  });

  it('a session emptied by a damaged snapshot is listed again once the good snapshot is put back, without the doctor', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const chat = await runPiped([], 'one\ntwo\n/save\n/quit\n', options);
    const id = /Saved (\S+) \(4 messages\)/.exec(chat.stderr)![1]!;
    const dir = sessionDir(options.home, id)!;
    const snapshot = join(dir, 'session.json');
    const good = readFileSync(snapshot);
    truncateSync(snapshot, 100);
    const resumed = await runPiped(['--session-id', id], '/quit\n', options);
    expect(resumed.stderr).toContain('Recovered 0 messages from the journal');
    // The damaged copy cleared away by hand: the session holds nothing now, so it is not listed.
    for (const name of readdirSync(dir).filter((n) => n.startsWith('session.json.corrupt-'))) rmSync(join(dir, name));
    expect(await listed(options)).toEqual([]);
    // The good snapshot put back by hand: the caches (0 messages) lose to it.
    writeFileSync(snapshot, good);
    const text = await runPiped(['sessions', 'list'], '', options);
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toMatch(new RegExp(`^ {2}${id} .* 4 messages .* one\\n$`));
    expect(await indexRow(join(dirname(dirname(dir)), 'index.json'), id)).toMatchObject({ title: 'one', messageCount: 4 });
  });

  it('sessions search shows a snapshot put back by hand as it is: its title, its count, and none of what the later one said', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const search = async (query: string) => {
      const r = await runPiped(['sessions', 'search', query, '--json'], '', options);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { total: number; results: Row[] };
    };
    // The search index built and up to date with the later snapshot before the earlier one is put back.
    const { id, dir, index } = await olderSnapshotPutBack(options, async (later) => {
      expect(await search('three')).toMatchObject({ total: 1, results: [{ id: later, title: 'Later title', messageCount: 6 }] });
    });
    expect(await search('two')).toMatchObject({ total: 1, results: [{ id, title: 'one', messageCount: 4 }] });
    expect(await search('three')).toMatchObject({ total: 0, results: [] });
    const text = await runPiped(['sessions', 'search', 'two'], '', options);
    expect(text.stdout).toMatch(new RegExp(`^ {2}${id} .* 4 messages .* one\n`));
    // The caches were rewritten on the way, as a listing rewrites them.
    expect(metaRow(dir)).toMatchObject({ title: 'one', messageCount: 4 });
    expect(await indexRow(index, id)).toMatchObject({ title: 'one', messageCount: 4 });
  });

  it('sessions doctor reports the stale meta file and index row, one line each, and rewrites them', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { id, dir, index } = await olderSnapshotPutBack(options);
    const doctor = await runPiped(['sessions', 'doctor'], '', options);
    expect(doctor.code, doctor.stderr).toBe(0);
    const lines = doctor.stdout.split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^Fixed ${id}: its meta file said 6 messages, "Later title", updated \\S+; the session holds 4 messages, "one", updated \\S+\\.$`)),
      expect.stringMatching(new RegExp(`^Fixed ${id}: its row in the listing index said 6 messages, "Later title", updated \\S+; the session holds 4 messages, "one", updated \\S+\\.$`)),
      '',
    ]);
    expect(doctor.stderr).toBe('No session has a problem.\n');
    expect(metaRow(dir)).toMatchObject({ title: 'one', messageCount: 4 });
    expect(await indexRow(index, id)).toMatchObject({ title: 'one', messageCount: 4 });
    // Nothing lost: the snapshot put back is the session, whole.
    const show = JSON.parse((await runPiped(['sessions', 'show', id, '--json'], '', options)).stdout) as { messages: { content: string }[] };
    expect(show.messages.map((m) => m.content)).toEqual(['one', expect.any(String), 'two', expect.any(String)]);

    // Once fixed, nothing is left to fix; --json says so too.
    const again = await runPiped(['sessions', 'doctor', '--json'], '', options);
    expect([again.code, JSON.parse(again.stdout)]).toEqual([0, { fixed: [], sessions: [] }]);
  });

  it('sessions doctor --json lists each fix with what the cache said and what the session holds', async () => {
    const options = { home: tmpHome(), cwd: tmpHome('chatkeep-project-') };
    const { id } = await olderSnapshotPutBack(options);
    const doctor = await runPiped(['sessions', 'doctor', id, '--json'], '', options);
    expect(doctor.code, doctor.stderr).toBe(0);
    const said = { title: 'Later title', messageCount: 6, updatedAt: expect.any(Number) };
    const holds = { title: 'one', messageCount: 4, updatedAt: expect.any(Number) };
    expect(JSON.parse(doctor.stdout)).toEqual({
      fixed: [
        { id, project: options.cwd, cache: 'meta', was: said, now: holds },
        { id, project: options.cwd, cache: 'index', was: said, now: holds },
      ],
      sessions: [],
    });
  });
});
