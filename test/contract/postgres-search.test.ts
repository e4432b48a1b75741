/**
 * What only PostgreSQL's search has to prove (docs/design.md §18): its rows are written with each
 * snapshot, in its transaction (a search indexes nothing first), only new messages are added
 * when a session grows, the trigram or core index serves the query, and databases of schema 2
 * keep what they had indexed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { encodeSnapshot } from '../../src/session/format/codec.js';
import { rowFromSnapshot } from '../../src/session/format/index-row.js';
import type { SessionStore } from '../../src/session/format/store.js';
import type { SessionSnapshot } from '../../src/session/api/data.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { matchStatement } from '../../src/store/postgres/search-match.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { storeEachTest } from '../helpers/store-each-test.js';

const AT = new Date('2026-11-23T10:20:30.000Z');
const noLoss = (): void => undefined;

describe('PostgreSQL search rows', () => {
  const each = storeEachTest('pg-search');
  const open = (): Promise<PostgresStore> => each.open();
  let url: string;
  beforeEach(() => {
    url = each.url;
  });
  const sql = <R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> => runSql<R>(url, text, params);
  const explain = async (text: string): Promise<string> => (await sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`)).map((r) => r['QUERY PLAN']).join('\n');

  /** Writes `texts` as session `id`'s snapshot under its lock, as the model saves. */
  async function save(store: PostgresStore, id: string, texts: string[], edit: (s: SessionSnapshot) => void = () => undefined): Promise<SessionSnapshot> {
    const lock = await store.lock(id, noLoss);
    const snapshot = blankSnapshot(id, store.project.path, AT, 'test');
    snapshot.messages = texts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, timestamp: new Date(AT.getTime() + i * 1000) }));
    snapshot.stats.messageCount = texts.length;
    edit(snapshot);
    await store.writeSnapshot(id, snapshot, lock);
    await lock.release();
    return snapshot;
  }

  /** 20,000 sessions of one message each, with their rows as a snapshot writes them; a needle found in session `s4242` only. */
  async function bulk(key: string, path: string, grammed: boolean): Promise<string> {
    await sql(`INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, 'h') ON CONFLICT DO NOTHING`, [key, path]);
    await sql(`INSERT INTO chatkeep.ids (id) SELECT 's' || n FROM generate_series(1, 20000) n`);
    await sql(
      `INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at, status, title)
       SELECT 's' || n, $1, $2, now(), now() - n * interval '1 second', 'closed', 'Session ' || n FROM generate_series(1, 20000) n`,
      [key, path],
    );
    await sql(`INSERT INTO chatkeep.search_sessions (session_id, snapshot_version, seq, messages, archived, tail, title, folded_title)
      SELECT 's' || n, 0, 0, 1, 0, '', 'Session ' || n, 'session ' || n FROM generate_series(1, 20000) n`);
    const grams = grammed ? 'array_to_tsvector(ARRAY(SELECT DISTINCT substr(t, i, 3) FROM generate_series(1, char_length(t) - 2) i))' : 'NULL';
    await sql(
      `INSERT INTO chatkeep.search_messages (session_id, n, role, at, archived, content, folded, grams)
       SELECT 's' || n, 0, 'user', 0, false, to_json(t), t, ${grams}
       FROM generate_series(1, 20000) n, LATERAL (SELECT 'message ' || md5(n::text) || ' of session ' || n AS t) m`,
    );
    // As autovacuum leaves the tables after a bulk load (the GIN index's pending list merged).
    await sql('VACUUM ANALYZE chatkeep.sessions, chatkeep.search_sessions, chatkeep.search_messages');
    return (await sql<{ h: string }>("SELECT md5('4242') AS h"))[0]!.h.slice(3, 11);
  }

  it('writes the rows with the snapshot: the first search indexes nothing; a grown session gets only its new messages', async () => {
    const writer = await open();
    const id = await writer.reserveId(AT, writer.project);
    await save(writer, id, ['planning the zanzibar trip', 'sounds good']);
    // In the database as soon as the snapshot is: a search on another machine reads, indexes nothing.
    const rows = () => sql<{ n: number; folded: string; ctid: string }>('SELECT n, folded, ctid::text FROM chatkeep.search_messages WHERE session_id = $1 ORDER BY n', [id]);
    const first = await rows();
    expect(first.map((r) => [r.n, r.folded])).toEqual([[0, 'planning the zanzibar trip'], [1, 'sounds good']]);
    const reader = await open();
    const found = await reader.searchSessions('ZANZIBAR', [reader.project], {});
    expect(found.results.map((r) => [r.session.id, r.hits, r.snippet?.text])).toEqual([[id, 1, 'planning the zanzibar trip']]);
    expect(found.index).toEqual([{ project: reader.project.path, state: 'fresh', reindexed: 0 }]);

    // A later snapshot with one more message: the rows written before stay as they were (same tuples).
    await save(writer, id, ['planning the zanzibar trip', 'sounds good', 'Zanzibar in May']);
    const grown = await rows();
    expect(grown.map((r) => r.ctid).slice(0, 2)).toEqual(first.map((r) => r.ctid));
    expect(grown.map((r) => r.folded)).toEqual(['planning the zanzibar trip', 'sounds good', 'zanzibar in may']);
    // A /reset archives them in place: rewritten, archived flags and all, and still found.
    await save(writer, id, [], (s) => {
      s.archived = [{ archivedAt: AT, summary: null, stats: s.stats, messages: grown.map((r, i) => ({ role: 'user', content: ['planning the zanzibar trip', 'sounds good', 'Zanzibar in May'][i]!, timestamp: AT })) }];
    });
    expect(await sql('SELECT n, archived FROM chatkeep.search_messages WHERE session_id = $1 ORDER BY n', [id])).toEqual([
      { n: 0, archived: true }, { n: 1, archived: true }, { n: 2, archived: true },
    ]);
    const again = await reader.searchSessions('zanzibar', [reader.project], {});
    expect(again.results.map((r) => [r.hits, r.snippet?.archived])).toEqual([[2, true]]);
    expect(again.index[0]?.reindexed).toBe(0);
  });

  it('makes no snippet where none is asked for: no message read, no best message found', async () => {
    const store = await open();
    const ids = [await store.reserveId(AT, store.project), await store.reserveId(AT, store.project)];
    await save(store, ids[0]!, ['the zanzibar plan', 'zanzibar and Zanzibar again']);
    await save(store, ids[1]!, ['zanzibar once', 'nothing']);
    const without = await store.searchSessions('zanzibar', [store.project], { limit: 0, snippets: false });
    expect(without.results.map((r) => [r.session.id, r.hits, r.snippet])).toEqual([[ids[0], 3, undefined], [ids[1], 1, undefined]]);
    const withThem = await store.searchSessions('zanzibar', [store.project], { limit: 0 });
    expect(withThem.results.map((r) => [r.session.id, r.hits, r.snippet?.message])).toEqual([[ids[0], 3, 1], [ids[1], 1, 0]]);
  });

  it("says on the session's row whether its rows cover it: set by a snapshot, cleared by a title recorded without one, set by the search that indexes it", async () => {
    const store = await open();
    const id = await store.reserveId(AT, store.project);
    const first = await save(store, id, ['a heron on the shore', 'indeed'], (s) => (s.title = 'Heron notes'));
    const coverage = () => sql<{ covered: boolean; seq: boolean; messages: number }>(
      `SELECT s.search_version IS NOT DISTINCT FROM s.snapshot_version AS covered, s.search_seq = d.seq AS seq, s.search_messages AS messages
       FROM chatkeep.sessions s JOIN chatkeep.search_sessions d ON d.session_id = s.id WHERE s.id = $1`,
      [id],
    );
    expect(await coverage()).toEqual([{ covered: true, seq: true, messages: 2 }]);
    const found = async (query: string): Promise<[string, number][]> =>
      (await store.searchSessions(query, [store.project], {})).results.map((r) => [r.session.id, r.matched.title ? 1 : 0]);

    // The model records a title the rows do not hold (a title folded otherwise than lowercased): found by it, not by the old one.
    await store.recordRow(rowFromSnapshot({ ...first, title: 'Straße notes' }, 'closed'));
    expect((await coverage())[0]?.covered).toBe(false);
    expect(await found('STRASSE')).toEqual([[id, 1]]);
    expect(await found('heron notes')).toEqual([]);
    expect(await found('heron')).toEqual([[id, 0]]);

    // Its next snapshot writes rows of that title: covered again, the title found from them.
    await save(store, id, ['a heron on the shore', 'indeed', 'and an egret'], (s) => (s.title = 'Straße notes'));
    expect(await coverage()).toEqual([{ covered: true, seq: true, messages: 3 }]);
    expect(await found('strasse')).toEqual([[id, 1]]);

    // A snapshot version the rows are not of (as a quarantine leaves it): read and indexed by the search, covered again.
    await sql('UPDATE chatkeep.sessions SET snapshot_version = snapshot_version + 1 WHERE id = $1', [id]);
    expect((await coverage())[0]?.covered).toBe(false);
    const again = await store.searchSessions('egret', [store.project], {});
    expect([again.results.map((r) => r.session.id), again.index[0]?.reindexed]).toEqual([[id], 1]);
    expect(await coverage()).toEqual([{ covered: true, seq: true, messages: 3 }]);
  });

  it('narrows over the trigram index where the server has pg_trgm; finds the same once pg_trgm is gone', async () => {
    const store = await open();
    expect(await sql("SELECT to_regclass('chatkeep.search_messages_trgm') IS NOT NULL AS trgm")).toEqual([{ trgm: true }]);
    const key = (store.project as SessionStore['project'] & { key: string }).key;
    const needle = await bulk(key, store.project.path, false);
    const trgmPlan = await explain(matchStatement('trgm').replaceAll('$1', `ARRAY['${key}']`).replaceAll('$2', `'${needle}'`).replaceAll('$3', `'%${needle}%'`));
    expect(trgmPlan).toContain('search_messages_trgm');
    expect(trgmPlan).not.toMatch(/Seq Scan on search_messages/);
    const found = await store.searchSessions(needle.toUpperCase(), [store.project], {});
    expect(found.results.map((r) => [r.session.id, r.hits, r.snippet?.text.slice(0, 8)])).toEqual([['s4242', 1, 'message ']]);
    expect(found.index).toEqual([{ project: store.project.path, state: 'fresh', reindexed: 0 }]);

    // pg_trgm dropped from the server: the next store narrows by sequences; rows written without them are still found.
    await sql('DROP EXTENSION pg_trgm CASCADE');
    const core = await open();
    expect((await core.searchSessions(needle, [core.project], {})).results.map((r) => r.session.id)).toEqual(['s4242']);
  });

  it('without pg_trgm: narrows over the GIN index of sequences; a message too long for a tsvector is kept without them and found', async () => {
    // A server where the migration cannot create pg_trgm (as when it is not installed).
    await sql('CREATE SCHEMA chatkeep');
    await sql("CREATE FUNCTION chatkeep.similarity(text, text) RETURNS real LANGUAGE sql AS 'SELECT 0::real'");
    const store = await open();
    expect(await sql("SELECT to_regclass('chatkeep.search_messages_trgm') IS NOT NULL AS trgm")).toEqual([{ trgm: false }]);
    const key = (store.project as SessionStore['project'] & { key: string }).key;
    const needle = await bulk(key, store.project.path, true);
    const grams = `''${needle.slice(0, 3)}'' & ''${needle.slice(5, 8)}''`;
    const plan = await explain(matchStatement('grams').replaceAll('$1', `ARRAY['${key}']`).replaceAll('$2', `'${needle}'`).replaceAll('$3', `'${grams}'`));
    expect(plan).toContain('search_messages_grams');
    expect(plan).not.toMatch(/Seq Scan on search_messages/);
    expect((await store.searchSessions(needle, [store.project], {})).results.map((r) => r.session.id)).toEqual(['s4242']);
    const long = `${'word '.repeat(20_000)}needle-in-a-long-message`;
    const saved = await store.reserveId(AT, store.project);
    await save(store, saved, [long, 'short needle-in-a-long one']);
    expect(await sql('SELECT n, grams IS NULL AS ungrammed FROM chatkeep.search_messages WHERE session_id = $1 ORDER BY n', [saved])).toEqual([
      { n: 0, ungrammed: true }, { n: 1, ungrammed: false },
    ]);
    const again = await store.searchSessions('in-a-long', [store.project], {});
    expect(again.results.map((r) => [r.session.id, r.hits])).toEqual([[saved, 2]]);
  });

  it('migrates the search rows of schema 2: what was indexed stays valid, a session never indexed is indexed by the first search', async () => {
    await sql('CREATE SCHEMA chatkeep');
    await sql('CREATE TABLE chatkeep.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), tool_version text NOT NULL)');
    for (const [i, migration] of MIGRATIONS.slice(0, 2).entries()) {
      await sql(migration);
      await sql("INSERT INTO chatkeep.migrations (version, tool_version) VALUES ($1, '0.2.0')", [i + 1]);
    }
    await sql("INSERT INTO chatkeep.projects (key, path, host) VALUES ('k', '/old', 'h')");
    const old = async (id: string, text: string): Promise<void> => {
      const s = blankSnapshot(id, '/old', AT, 'test');
      s.messages = [{ role: 'user', content: text, timestamp: AT }];
      s.stats.messageCount = 1;
      s.title = 'Old';
      await sql('INSERT INTO chatkeep.ids (id) VALUES ($1)', [id]);
      await sql(
        `INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at, title, status, message_count, snapshot, snapshot_version)
         VALUES ($1, 'k', '/old', $2, $2, 'Old', 'closed', 1, $3, 1)`,
        [id, AT, await encodeSnapshot(s)],
      );
    };
    await old('session-20200101-000000', 'indexed by an earlier search');
    await old('session-20200101-000001', 'never searched before');
    // As schema 2's search left it: the first session indexed at version '1/0'; its row says something only the index holds.
    await sql("INSERT INTO chatkeep.search_sessions (session_id, version) VALUES ('session-20200101-000000', '1/0')");
    await sql(`INSERT INTO chatkeep.search_messages (session_id, n, role, at, archived, content, folded)
      VALUES ('session-20200101-000000', 0, 'user', 0, false, '"as indexed then"', 'as indexed then')`);
    const store = await open();
    const project = { ...store.project, key: 'k', path: '/old' } as typeof store.project;
    const kept = await store.searchSessions('as indexed', [project], {});
    expect(kept.results.map((r) => r.session.id)).toEqual(['session-20200101-000000']);
    expect(kept.index).toEqual([{ project: '/old', state: 'stale', reindexed: 1 }]);
    expect((await store.searchSessions('never searched', [project], {})).results.map((r) => r.session.id)).toEqual(['session-20200101-000001']);
    const next = await store.searchSessions('old', [project], {});
    expect([next.total, next.index]).toEqual([2, [{ project: '/old', state: 'fresh', reindexed: 0 }]]);
  });
});
