/**
 * A database at the schema before the search function, upgraded by this build: every row as it
 * was, `chatkeep.search_match` created, and a search on it what its sessions hold, the first
 * (which indexes the sessions, which have no search rows) and the next alike. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { MIGRATIONS, STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { SEARCH_MATCH_FUNCTION_MIGRATION } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { databaseAtVersion, fillWithSessions, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';

const SESSIONS = 300;
/** The version before this migration, wherever the migration ends up in the list. */
const BEFORE = MIGRATIONS.indexOf(SEARCH_MATCH_FUNCTION_MIGRATION);

const FUNCTIONS_SQL = "SELECT pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = 'search_match' AND pronamespace = 'chatkeep'::regnamespace";

describe('PostgreSQL schema upgrade to the search function', () => {
  it('keeps every row, creates the function, and a search finds what the sessions hold', async () => {
    expect(BEFORE).toBeGreaterThan(0);
    const url = await databaseAtVersion(inject('postgresAdminUrl'), BEFORE);
    await fillWithSessions(url, 'su-', SESSIONS);
    expect(await runSql(url, FUNCTIONS_SQL)).toEqual([]);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-upgrade-'));
    const store = await openPostgresStore(url, { interpreter, cwd });
    try {
      expect(await runSql(url, 'SELECT max(version) AS v FROM chatkeep.migrations')).toEqual([{ v: STORE_SCHEMA_VERSION }]);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      expect(await runSql(url, FUNCTIONS_SQL)).toEqual([{ args: 'keys text[], folded text, pattern text, narrowing text' }]);
      const project = { ...store.project, key: 'p' } as ProjectInfo;
      // By title ('Session N'): the first search indexes the sessions (written before search rows), the next reads their rows.
      for (let round = 0; round < 2; round++) {
        const one = await store.searchSessions('session 123', [project], {});
        expect(one.results.map((r) => r.session.id)).toEqual(['su-123']);
        // Sessions 1, 10–19 and 100–199.
        expect((await store.searchSessions('session 1', [project], { limit: 0 })).total).toBe(111);
        expect((await store.searchSessions('zz', [project], {})).total).toBe(0);
      }
      expect(await runSql(url, 'SELECT count(*)::int AS n FROM chatkeep.search_sessions')).toEqual([{ n: SESSIONS }]);
    } finally {
      await store.close();
    }
    expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
  });
});
