/**
 * A session with events past its search rows (a live session's unsaved messages) is found by a
 * search whichever way the match learns it (search-pending.ts): the events table read whole where
 * it holds fewer rows than the sessions searched (or has not been counted yet); read up to that many
 * and found to hold more (statistics that say fewer than it holds), then each session's last event
 * by key; or not read, where the statistics say it holds as many, each session's last event by key.
 * Counted as the times the server function's kept plan reads `events` (auto_explain), as a superuser
 * (no row security: a member reads it only where it has no page, search-pending.ts).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { MATCHED_SQL } from '../../src/store/postgres/search-match.js';
import { AT, messageEvent, savedSession } from './contract-kit.js';
import { calledRowsRead, scansOf } from '../helpers/plan-rows.js';
import { runSql } from '../helpers/postgres.js';
import { storeEachTest } from '../helpers/store-each-test.js';

/** The sessions of the project searched. */
const MINE = 10;

describe('a search of sessions with events past their search rows', () => {
  const each = storeEachTest('search-pending');

  it('finds them whether the events table is read whole, read short of whole, or not read', async () => {
    const { url } = each;
    const store = await each.open();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ids: string[] = [];
      for (let n = 1; n <= MINE; n++) ids.push((await savedSession(store, new Date(AT.getTime() + n * 60_000), [`message ${n}`])).id);
      // An unsaved message of the third, past its rows' last event: a live session.
      const live = ids[2]!;
      const lock = await store.lock(live, () => undefined);
      const log = await store.openLog(live, lock);
      await log.append(messageEvent(1, 'user', 'an osprey'), true);
      const key = keyOf(store.project);
      const project = { ...store.project, key } as ProjectInfo;
      const role = (await runSql<{ role: string }>(url, 'SELECT current_user AS role'))[0]!.role;
      const found = async (): Promise<{ ids: string[]; pending: string[]; reads: number }> => {
        const ids = (await store.searchSessions('osprey', [project], {})).results.map((r) => r.session.id);
        const { rows, plans } = await calledRowsRead<{ id: string; pending: boolean }>(admin, role, MATCHED_SQL, [[key], 'osprey', '%osprey%', 'trgm'], new Set());
        return { ids, pending: rows.filter((r) => r.pending).map((r) => r.id), reads: scansOf(plans, 'events') };
      };

      // One row, ten sessions, not counted yet: the table read once, the live session's last event looked up.
      expect(await found()).toEqual({ ids: [live], pending: [live], reads: 2 });
      // Counted: the same.
      await runSql(url, 'ANALYZE chatkeep.events');
      expect(await found()).toEqual({ ids: [live], pending: [live], reads: 2 });

      // 300 events of another session, the statistics still saying one row a page: read up to ten rows, then all ten looked up.
      await runSql(url, "INSERT INTO chatkeep.projects (key, path, host) VALUES ('other', '/other', 'h')");
      await runSql(url, "INSERT INTO chatkeep.ids (id) VALUES ('so-1')");
      await runSql(
        url,
        `INSERT INTO chatkeep.sessions (id, project_key, project_path, title, created_at, updated_at, status, snapshot_version, message_count)
         VALUES ('so-1', 'other', '/other', 'elsewhere', now(), now(), 'open', 0, 0)`,
      );
      await runSql(
        url,
        `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
         SELECT 'so-1', k, now(), 'message', json_build_object('message', json_build_object('role', 'user', 'content', 'an osprey ' || k, 'timestamp', now())), 'e' || k
         FROM generate_series(1, 300) k`,
      );
      expect(await found()).toEqual({ ids: [live], pending: [live], reads: 1 + MINE });

      // Counted: not read, each of the ten looked up.
      await runSql(url, 'ANALYZE chatkeep.events');
      expect(await found()).toEqual({ ids: [live], pending: [live], reads: MINE });
      await log.close();
      await lock.release();
    } finally {
      await admin.end();
    }
  });
});
