/**
 * A database at the schema before the search function, one at the schema before its role that
 * sees every session read by key, and one before its hits were counted in one pass, each upgraded
 * by this build: every row as it was, `chatkeep.search_match` this build's (each narrowing's
 * matchSql), and a search on it what its sessions hold, the first (which indexes the sessions,
 * which have no search rows) and the next alike. (A build that knows only the schema before
 * refuses the result as any newer schema: postgres-only.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../src/session/api/data.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { matchSql, SEARCH_MATCH_BY_KEY_MIGRATION, SEARCH_MATCH_COUNTED_ONCE_MIGRATION, SEARCH_MATCH_FUNCTION_MIGRATION } from '../../src/store/postgres/search-match.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { serverFunctions } from '../helpers/server-function.js';
import { databaseBefore, fillWithSessions, schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 300;

const NARROWINGS = ['trgm', 'grams', undefined] as const;

describe.each([
  ['the search function', SEARCH_MATCH_FUNCTION_MIGRATION, 0],
  ['the search by key for a role that sees every session', SEARCH_MATCH_BY_KEY_MIGRATION, 1],
  ['the hits counted in one pass', SEARCH_MATCH_COUNTED_ONCE_MIGRATION, 1],
] as const)('PostgreSQL schema upgrade to %s', (_, migration, functionsBefore) => {
  it('keeps every row, makes the function this build\'s, and a search finds what the sessions hold', async () => {
    const url = await databaseBefore(migration);
    await fillWithSessions(url, 'su-', SESSIONS);
    expect(await serverFunctions(url, 'search_match')).toHaveLength(functionsBefore);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);

    const cwd = tmpHome('chatkeep-upgrade-');
    const store = await openPostgresStore(url, { interpreter, cwd });
    try {
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      const after = await serverFunctions(url, 'search_match');
      expect(after.map((f) => f.args)).toEqual(['keys text[], folded text, pattern text, narrowing text']);
      for (const narrowing of NARROWINGS) expect(after[0]!.prosrc).toContain(matchSql(narrowing));
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
