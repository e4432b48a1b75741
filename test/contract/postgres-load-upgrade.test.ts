/**
 * A database of 10,000 sessions at the schema before a resume's statement became the server's
 * function `chatkeep.load_session` (load-sql.ts), upgraded by this build: every row as it was, the
 * function this build's statement (run as the caller, its plan kept generic), and a session
 * stored before resumed with its events in order. On a team's server the function reads what
 * row security lets the member read, as the statement did: another member's session is unknown
 * to her until it is shared. (A build that knows only the schema before refuses the result as
 * any newer schema: postgres-only.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnknownSessionError } from '../../src/session/api/errors.js';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LOAD_FUNCTION_MIGRATION, LOAD_SQL } from '../../src/store/postgres/load-sql.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runSql } from '../helpers/postgres.js';
import { serverKeptPlan, serverFunctions } from '../helpers/server-function.js';
import { databaseBefore, fillWithSessions, schemaVersion, SESSIONS_DIGEST_SQL } from '../helpers/schema-at.js';
import { twoMembers } from '../helpers/team-stores.js';

const SESSIONS = 10_000;

describe('PostgreSQL schema upgrade to the resume as a function', () => {
  it('keeps every row of a 10,000-session database, and a session stored before resumes with its events', async () => {
    const url = await databaseBefore(LOAD_FUNCTION_MIGRATION);
    await fillWithSessions(url, 'ld-', SESSIONS);
    expect(await serverFunctions(url, 'load_session')).toEqual([]);
    const before = await runSql(url, SESSIONS_DIGEST_SQL);
    expect(before[0]).toMatchObject({ events: 2 * SESSIONS });

    const cwd = await mkdtemp(join(tmpdir(), 'chatkeep-load-upgrade-'));
    const store = await openPostgresStore(url, { interpreter, cwd });
    try {
      expect(await schemaVersion(url)).toBe(STORE_SCHEMA_VERSION);
      expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
      const fn = await serverKeptPlan(url, 'load_session');
      expect(fn.prosrc).toContain(LOAD_SQL);
      expect(fn.proconfig).toEqual(['plan_cache_mode=force_generic_plan']);

      const loaded = await store.load('ld-5000', { quarantine: false, now: new Date() });
      expect(loaded.events.map((e) => [e.seq, (e.payload as { content: string }).content])).toEqual([[1, 'message 1 of 5000'], [2, 'message 2 of 5000']]);
      expect(loaded.createdAt).toEqual(new Date(Date.parse('2025-11-24T10:00:00Z') - 5000 * 60_000));
      await expect(store.load('ld-no-such', { quarantine: false, now: new Date() })).rejects.toBeInstanceOf(UnknownSessionError);
    } finally {
      await store.close();
      await rm(cwd, { recursive: true, force: true });
    }
    expect(await runSql(url, SESSIONS_DIGEST_SQL)).toEqual(before);
  });

  it("reads through the function only what row security lets a member read", async () => {
    const { url, ann, bob, bobStore, annStore, close } = await twoMembers('lf');
    try {
      const s = blankSnapshot('lf-bob-1', bobStore.project.path, new Date(Date.UTC(2026, 10, 20)), 'test');
      s.messages = [{ role: 'user', content: 'only for bob', timestamp: new Date(Date.UTC(2026, 10, 20)) }];
      s.stats.messageCount = 1;
      expect(await bobStore.adopt(s)).toBe(true);
      expect((await bobStore.load(s.id, { quarantine: false, now: new Date() })).snapshot?.messages.map((m) => m.content)).toEqual(['only for bob']);
      await expect(annStore.load(s.id, { quarantine: false, now: new Date() })).rejects.toBeInstanceOf(UnknownSessionError);
      await runSql(bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee) VALUES ($1, $2)', [s.id, ann.role]);
      expect((await annStore.load(s.id, { quarantine: false, now: new Date() })).snapshot?.messages.map((m) => m.content)).toEqual(['only for bob']);
      expect(await serverFunctions(url, 'load_session')).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
