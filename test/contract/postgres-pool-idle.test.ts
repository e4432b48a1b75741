/**
 * A PostgreSQL store keeps an idle pooled connection as long as the file store keeps its index
 * (WARM_KEEP_MS): a search after a pause of a few seconds, the session browser's or an API
 * server's, runs on the backend that planned the match, not on a new login. Node's timers are
 * faked around the searches (the pool's idle timer is one), so the pause costs no wall time; the
 * server's own view, `pg_stat_activity`, says which backends the store holds.
 */
import pg from 'pg';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { keyOf } from '../../src/store/postgres/project-key.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { WARM_KEEP_MS } from '../../src/search/warm.js';
import { adoptedSession } from '../helpers/adopted.js';
import { createDatabase } from '../helpers/postgres.js';
import { tmpHome } from '../helpers/tmp-home.js';

afterEach(() => void vi.useRealTimers());

describe("a PostgreSQL store's pooled connections", () => {
  it('stay open through a pause between searches, and are let go after WARM_KEEP_MS', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const store = await openPostgresStore(url, { interpreter, cwd: tmpHome('chatkeep-pool-idle-') });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await adoptedSession(store, 'pi-1', 'a heron by the ledger');
      const project = { ...store.project, key: keyOf(store.project) } as ProjectInfo;
      const backends = async (): Promise<number[]> =>
        (
          await admin.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'chatkeep' ORDER BY pid",
          )
        ).rows.map((r) => r.pid);

      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      expect((await store.searchSessions('heron', [project], {})).results.map((r) => r.session.id)).toEqual(['pi-1']);
      const warm = await backends();
      expect(warm.length).toBeGreaterThan(0);

      // A pause of most of a minute: the same backends, and the next search runs on them.
      await vi.advanceTimersByTimeAsync(WARM_KEEP_MS - 1_000);
      expect(await backends()).toEqual(warm);
      expect((await store.searchSessions('heron', [project], {})).results.map((r) => r.session.id)).toEqual(['pi-1']);
      expect(await backends()).toEqual(warm);

      // Unused for longer, they are let go: an idle store holds no connection of the server's.
      await vi.advanceTimersByTimeAsync(WARM_KEEP_MS + 1_000);
      vi.useRealTimers();
      for (let tries = 0; tries < 50 && (await backends()).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await backends()).toEqual([]);
    } finally {
      vi.useRealTimers();
      await admin.end();
      await store.close();
    }
  });
});
