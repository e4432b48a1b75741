/**
 * Search's blocks on PostgreSQL (src/store/postgres/search-blocks.ts): each snapshot's write keeps
 * every message's folded text at its place in its session's blocks (a new session, a grown one,
 * one rewritten), and search counts hits and finds the best message from them as the messages
 * say; a session whose blocks were lost is counted from its message rows, never short.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { blankSnapshot } from '../../src/session/format/blank.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { countOccurrences } from '../../src/search/fold.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { BLOCKS_SQL } from '../helpers/search-blocks.js';

const AT = new Date('2026-11-23T10:20:30.000Z');
const noLoss = (): void => undefined;

/** Message `i` of a session: `journal` 0 to 4 times, the most (4) at i = 4, 9, 14…; a long one now and then. */
const text = (i: number): string => `Message ${i}: ${'Journal '.repeat(i % 5)}${i % 7 === 3 ? 'x'.repeat(3000) : ''}end`;

describe('PostgreSQL search blocks', () => {
  let url: string;
  let cwd: string;
  let store: PostgresStore;

  /** Writes `texts` as session `id`'s snapshot under its lock, as the model saves. */
  async function save(id: string, texts: string[]): Promise<void> {
    const lock = await store.lock(id, noLoss);
    const snapshot = blankSnapshot(id, store.project.path, AT, 'test');
    snapshot.messages = texts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, timestamp: new Date(AT.getTime() + i * 1000) }));
    snapshot.stats.messageCount = texts.length;
    await store.writeSnapshot(id, snapshot, lock);
    await lock.release();
  }

  /** What a search of `journal` should say of a session of `texts`: its hits, and the message with the most (the latest of equals). */
  const expected = (texts: string[]): [number, number] => {
    const counts = texts.map((t) => countOccurrences(t.toLowerCase(), 'journal'));
    const most = Math.max(...counts);
    return [counts.reduce((a, b) => a + b, 0), counts.lastIndexOf(most)];
  };
  const search = async (): Promise<[string, number, number | undefined][]> =>
    (await store.searchSessions('JOURNAL', [store.project], { limit: 0 })).results.map((r) => [r.session.id, r.hits, r.snippet?.message]);

  beforeEach(async () => {
    url = await createDatabase(inject('postgresAdminUrl'));
    cwd = await mkdtemp(join(tmpdir(), 'chatkeep-pg-blocks-'));
    store = await openPostgresStore(url, { interpreter, cwd });
  });
  afterEach(async () => {
    await store.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('keeps every message at its place in its blocks as sessions are written, grow and are rewritten; search counts from them', async () => {
    const long = await store.reserveId(AT, store.project);
    const short = await store.reserveId(AT, store.project);
    let texts = Array.from({ length: 70 }, (_, i) => text(i));
    await save(long, texts);
    await save(short, [text(1), text(4)]);
    expect(await runSql(url, BLOCKS_SQL)).toEqual([{ misplaced: 0, elements: 72, messages: 72 }]);
    expect(await runSql(url, 'SELECT block, cardinality(folded) AS n FROM chatkeep.search_blocks WHERE session_id = $1 ORDER BY block', [long])).toEqual([
      { block: 0, n: 32 }, { block: 1, n: 32 }, { block: 2, n: 6 },
    ]);
    expect(await search()).toEqual([[long, ...expected(texts)], [short, ...expected([text(1), text(4)])]]);

    // Grown across a block's end: the last block made again with the new messages, a new one after it.
    texts = [...texts, ...Array.from({ length: 30 }, (_, i) => text(70 + i))];
    await save(long, texts);
    expect(await runSql(url, BLOCKS_SQL)).toEqual([{ misplaced: 0, elements: 102, messages: 102 }]);
    expect(await search()).toEqual([[long, ...expected(texts)], [short, ...expected([text(1), text(4)])]]);

    // An earlier message changed (not a prefix): the session's rows and blocks written anew, shorter.
    texts = texts.slice(0, 40).map((t, i) => (i === 5 ? 'journal journal journal journal journal' : t));
    await save(long, texts);
    expect(await runSql(url, BLOCKS_SQL)).toEqual([{ misplaced: 0, elements: 42, messages: 42 }]);
    expect(await search()).toEqual([[long, ...expected(texts)], [short, ...expected([text(1), text(4)])]]);
  });

  it('counts a session whose blocks were lost or cut short from its message rows, with the same answer', async () => {
    const id = await store.reserveId(AT, store.project);
    const texts = Array.from({ length: 80 }, (_, i) => text(i));
    await save(id, texts);
    const whole = await search();
    expect(whole).toEqual([[id, ...expected(texts)]]);
    // The block holding the best message gone: counted from the blocks alone, both the hits and the best would be wrong.
    await runSql(url, 'DELETE FROM chatkeep.search_blocks WHERE session_id = $1 AND block = $2', [id, Math.floor(expected(texts)[1] / 32)]);
    expect(await search()).toEqual(whole);
    await runSql(url, 'UPDATE chatkeep.search_blocks SET folded = folded[1:3] WHERE session_id = $1 AND block = 0', [id]);
    expect(await search()).toEqual(whole);
    await runSql(url, 'DELETE FROM chatkeep.search_blocks WHERE session_id = $1', [id]);
    expect(await search()).toEqual(whole);
    // The next snapshot that grows it writes its last blocks again; what was lost before them is still counted from the rows.
    const grown = [...texts, text(80)];
    await save(id, grown);
    expect(await search()).toEqual([[id, ...expected(grown)]]);
  });
});
