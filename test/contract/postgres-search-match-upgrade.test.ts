/**
 * A database at the schema before the search function, upgraded by this build: every row as it
 * was, `chatkeep.search_match` created, and a search on it what its sessions hold, the first
 * (which indexes the sessions, which have no search rows) and the next alike. (A build that
 * knows only the schema before refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { SEARCH_MATCH_FUNCTION_MIGRATION } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { serverFunctions } from '../helpers/server-function.js';
import { databaseBefore, fillWithSessions, schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';

const SESSIONS = 300;

describe('PostgreSQL schema upgrade to the search function', () => {
  it('keeps every row, creates the function, and a search finds what the sessions hold', async () => {
    const url = await databaseBefore(SEARCH_MATCH_FUNCTION_MIGRATION);
    await fillWithSessions(url, 'su-', SESSIONS);
    expect(await serverFunctions(url, 'search_match')).toEqual([]);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-upgrade-'));
    const store = await openPostgresStore(url, { interpreter, cwd });
    try {
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      expect((await serverFunctions(url, 'search_match')).map((f) => f.args)).toEqual(['keys text[], folded text, pattern text, narrowing text']);
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
