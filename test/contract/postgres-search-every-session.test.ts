/**
 * A search by a role that sees every session (a single user's database, the admin) reads the
 * sessions of the projects it searches, and each one's search facts and last event by key: not
 * every search fact and every event of the server, grouped, as schema 18's match did (EVERY_SESSION
 * in search-every-session.ts; since schema 26 its facts in one pass only where they are a quarter of the
 * server's or more, which these three are not; since schema 36 the events table read once where it
 * holds fewer rows than the sessions searched, which these 4,000 are not: search-pending.ts).
 * Counted as the rows the server function's kept plan reads (auto_explain).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { MATCHED_SQL } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { adoptedSession } from '../helpers/adopted.js';
import { calledRowsRead } from '../helpers/plan-rows.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { writeSearchFacts } from '../helpers/search-facts.js';

/** Sessions of another project, each with its search facts and two events. */
const OTHERS = 2_000;

describe('a search by a role that sees every session', () => {
  it("reads its projects' sessions and their facts and last events by key, not every other project's", async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-search-every-'));
    const store = await openPostgresStore(url, { interpreter, cwd });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const mine = [await adoptedSession(store, 'se-1', 'a heron by the ledger'), await adoptedSession(store, 'se-2', 'a heron again')];
      await adoptedSession(store, 'se-3', 'nothing of the kind');
      await runSql(url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ('other', '/other', 'h')");
      const ids = `SELECT 'so-' || n AS id, n FROM generate_series(1, ${OTHERS}) n`;
      await runSql(url, `INSERT INTO chatkeep.ids (id) SELECT id FROM (${ids}) i`);
      await runSql(
        url,
        `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
         SELECT id, 'other', '/other', 'heron ' || n, now(), now(), 'closed', 1, 1 FROM (${ids}) i`,
      );
      await writeSearchFacts(url, `SELECT id, 'heron ' || n AS title FROM (${ids}) i`);
      await runSql(
        url,
        `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
         SELECT id, k, now(), 'message', json_build_object('role', 'user', 'content', 'heron ' || k), 'e' || k FROM (${ids}) i, generate_series(1, 2) k`,
      );
      await runSql(url, 'ANALYZE');

      const key = keyOf(store.project);
      const project = { ...store.project, key } as ProjectInfo;
      expect((await store.searchSessions('heron', [project], {})).results.map((r) => r.session.id).sort()).toEqual(mine);

      const role = (await runSql<{ role: string }>(url, 'SELECT current_user AS role'))[0]!.role;
      const read = async (table: string): Promise<number> =>
        (await calledRowsRead(admin, role, MATCHED_SQL, [[key], 'heron', '%heron%', 'trgm'], new Set([table]))).read;
      // Three sessions searched: a few rows of each, where the whole server holds 2,000 sessions' facts and 4,000 events.
      expect(await read('search_sessions')).toBeLessThanOrEqual(3);
      expect(await read('events')).toBeLessThanOrEqual(3);
    } finally {
      await admin.end();
      await store.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
