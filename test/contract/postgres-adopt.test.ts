/**
 * How the PostgreSQL store stores whole sessions (import, copies: `adopt`), by the batch: each
 * session's row written once, a batch's project row once, the batch under one transaction ID, and a
 * session the server refuses rolled back alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { runSql } from '../helpers/postgres.js';
import { storeEachTest } from '../helpers/store-each-test.js';

const AT = new Date('2026-11-23T10:20:30.000Z');
/** A whole session of one message, `hello from <id>`, kept in `dir`: what an import stores. */
function oneMessage(id: string, dir: string): ReturnType<typeof blankSnapshot> {
  const s = blankSnapshot(id, dir, AT, 'test');
  s.messages = [{ role: 'user', content: `hello from ${id}`, timestamp: AT }];
  s.stats.messageCount = 1;
  return s;
}

describe('PostgreSQL store: sessions adopted', () => {
  const each = storeEachTest('pg-adopt');
  const open = () => each.open();

  it('adopts a whole session under its own ID once, in the project of its path; never an ID issued before', async () => {
    const store = await open();
    const elsewhere = await mkdtemp(join(tmpdir(), 'chatkeep-pg-adopted-'));
    try {
      const copy = blankSnapshot('session-20200101-000000', elsewhere, AT, 'test');
      copy.title = 'copied';
      copy.messages = [{ role: 'user', content: 'hello', timestamp: AT }];
      copy.stats.messageCount = 1;
      expect(await store.adopt(copy)).toBe(true);
      expect(await store.adopt(copy)).toBe(false);
      const project = await store.projectAt(elsewhere);
      expect(project?.path).toBe(elsewhere);
      const rows = await store.list([project!]);
      expect(rows.map((r) => [r.id, r.status, r.title, r.messageCount])).toEqual([['session-20200101-000000', 'closed', 'copied', 1]]);
      expect((await store.load(copy.id, { now: AT, quarantine: false })).snapshot).toEqual({ ...copy, status: 'closed' });
      expect(await store.reserveId(new Date('2020-01-01T00:00:00Z'), store.project)).toBe('session-20200101-000000-2');
      await runSql(each.url, 'DELETE FROM chatkeep.sessions WHERE id = $1', ['session-20200101-000000-2']);
      expect(await store.adopt({ ...copy, id: 'session-20200101-000000-2' })).toBe(false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('writes an adopted session\'s row once, snapshot and all, leaving no dead version of it', async () => {
    const store = await open();
    const ids = ['session-20200101-000001', 'session-20200101-000002', 'session-20200101-000003'];
    // Stored at once, as an import stores them: one batch, one transaction, on a table that held no row before.
    await Promise.all(ids.map(async (id) => expect(await store.adopt(oneMessage(id, each.cwd))).toBe(true)));
    // A row inserted and then updated takes a second slot of the page (and leaves the first dead):
    // three rows written once are the page's first three slots.
    const rows = await runSql<{ id: string; at: string }>(each.url, 'SELECT id, ctid::text AS at, snapshot_version::int AS version, message_count FROM chatkeep.sessions ORDER BY ctid');
    expect(rows.map((r) => r.at)).toEqual(['(0,1)', '(0,2)', '(0,3)']);
    expect(rows.map(({ at: _, ...r }) => r).sort((a, b) => a.id.localeCompare(b.id))).toEqual(ids.map((id) => ({ id, version: 1, message_count: 1 })));
    expect((await store.searchSessions('hello from', [store.project], {})).results.map((r) => r.session.id).sort()).toEqual(ids);
  });

  it("writes the project's row once for a batch of adopted sessions, not once for each", async () => {
    const store = await open();
    const adopt = async (id: string): Promise<void> => {
      expect(await store.adopt(oneMessage(id, each.cwd))).toBe(true);
    };
    // The first alone (its project's row inserted); then three at once, in one turn of the event
    // loop (the codec loaded): one batch, which updates the row once (before: once a session).
    await adopt('session-20200101-000010');
    await Promise.all(['session-20200101-000011', 'session-20200101-000012', 'session-20200101-000013'].map(adopt));
    const projects = await runSql<{ key: string; at: string }>(each.url, 'SELECT key, ctid::text AS at FROM chatkeep.projects');
    expect(projects).toEqual([{ key: store.project.key, at: '(0,2)' }]);
    expect((await store.list([store.project])).map((r) => r.id).sort()).toEqual(['10', '11', '12', '13'].map((n) => `session-20200101-0000${n}`));
  });

  it('stores a batch of adopted sessions under one transaction ID, not one per session', async () => {
    const store = await open();
    const ids = ['session-20200101-000021', 'session-20200101-000022', 'session-20200101-000023'];
    await Promise.all(ids.map(async (id) => expect(await store.adopt(oneMessage(id, each.cwd))).toBe(true)));
    // Under a savepoint each, each session's rows carried a subtransaction's ID of their own: three here.
    const written = await runSql<{ xmin: string }>(
      each.url,
      `SELECT xmin::text FROM chatkeep.sessions WHERE id = ANY($1) UNION ALL SELECT xmin::text FROM chatkeep.search_messages WHERE session_id = ANY($1)
       UNION ALL SELECT xmin::text FROM chatkeep.search_sessions WHERE session_id = ANY($1)`,
      [ids],
    );
    expect(written).toHaveLength(9);
    expect(new Set(written.map((r) => r.xmin)).size).toBe(1);
  });

  it('rolls back alone a session of a batch that the server refuses, and stores the others', async () => {
    const store = await open();
    const refused = 'session-20200101-000032';
    await runSql(each.url, `CREATE FUNCTION chatkeep.refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = '${refused}' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await runSql(each.url, 'CREATE TRIGGER refuse_one BEFORE INSERT ON chatkeep.sessions FOR EACH ROW EXECUTE FUNCTION chatkeep.refuse_one()');
    const ids = ['session-20200101-000031', refused, 'session-20200101-000033'];
    const outcomes = await Promise.allSettled(ids.map((id) => store.adopt(oneMessage(id, each.cwd))));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('refused for the test');
    expect((await store.list([store.project])).map((r) => r.id).sort()).toEqual([ids[0], ids[2]]);
    expect((await store.searchSessions('hello from', [store.project], {})).results.map((r) => r.session.id).sort()).toEqual([ids[0], ids[2]]);
    // Its ID was not issued: once the server takes it, it is stored.
    await runSql(each.url, 'DROP TRIGGER refuse_one ON chatkeep.sessions');
    expect(await store.adopt(oneMessage(refused, each.cwd))).toBe(true);
  });
});
