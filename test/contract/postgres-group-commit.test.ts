/**
 * Group commit across a store's held sessions (docs/design.md §9, group-commit.ts): appends of
 * several sessions that arrive together are stored by one statement, one transaction (their rows
 * share its `xmin`), each still fenced by its own epoch: a session taken over meanwhile stores
 * nothing and its writer is told, the others are stored; an event stored before (a resend) counts
 * as written once; every append resolves only with what is stored.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { LockSupersededError } from '../../src/session/api/errors.js';
import type { EventLog, SessionEvent } from '../../src/session/format/store.js';
import { GROUPS_IN_FLIGHT } from '../../src/store/postgres/group-commit.js';
import type { PgLock } from '../../src/store/postgres/lock.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { createDatabase, runSql } from '../helpers/postgres.js';
import { twoMembers } from '../helpers/team-stores.js';
import { AT, savedSession } from './contract-kit.js';

const turn = (seq: number, content: string): SessionEvent => ({ seq, id: `${content}-${seq}`, ts: AT.toISOString(), type: 'message', payload: { role: 'user', content } });

describe('PostgreSQL group commit across held sessions', () => {
  let url: string;
  let cwd: string;
  let store: PostgresStore;
  beforeEach(async () => {
    url = await createDatabase(inject('postgresAdminUrl'));
    cwd = await mkdtemp(join(tmpdir(), 'chatkeep-pg-group-'));
    store = await openPostgresStore(url, { interpreter, cwd });
  });
  afterEach(async () => {
    await store.close();
    await rm(cwd, { recursive: true, force: true });
  });

  /** `n` saved sessions of the store, each held, with its log open. */
  const held = (n: number): Promise<{ id: string; lock: PgLock; log: EventLog }[]> =>
    Promise.all(Array.from({ length: n }, async (_, w) => {
      const { id } = await savedSession(store, new Date(AT.getTime() + w * 1000), [`w${w}`]);
      const lock = (await store.lock(id, () => undefined)) as PgLock;
      return { id, lock, log: await store.openLog(id, lock) };
    }));
  /** Each stored event of session `id`: its text and the transaction that stored it. */
  const rows = (id: string): Promise<{ c: string; xmin: string }[]> =>
    runSql(url, "SELECT payload->>'content' AS c, xmin::text FROM chatkeep.events WHERE session_id = $1 ORDER BY seq", [id]);

  it('appends of several sessions arriving together are committed in one transaction, each session\'s in order', async () => {
    const n = GROUPS_IN_FLIGHT + 3;
    const writers = await held(n);
    for (let seq = 1; seq <= 3; seq++) await Promise.all(writers.map((w, i) => w.log.append(turn(seq, `w${i}`), true)));
    const stored = await Promise.all(writers.map((w) => rows(w.id)));
    stored.forEach((r, i) => expect(r.map((x) => x.c)).toEqual(['w' + i, 'w' + i, 'w' + i]));
    // Each round's appends arrive in one turn of the event loop: they go together, none of them
    // first alone (which would make the others wait for it).
    for (let k = 0; k < 3; k++) expect(new Set(stored.map((r) => r[k]!.xmin)).size).toBe(1);
  });

  it('appends arriving while GROUPS_IN_FLIGHT groups are on their way wait, and go together once one has committed', async () => {
    const writers = await held(GROUPS_IN_FLIGHT + 3);
    const ahead = writers.slice(0, GROUPS_IN_FLIGHT);
    const later = writers.slice(GROUPS_IN_FLIGHT);
    // The groups ahead wait on the server for row locks of the admin's, one group after another.
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('SELECT 1 FROM chatkeep.sessions WHERE id = ANY($1) FOR UPDATE', [ahead.map((w) => w.id)]);
      const waitingOnAdmin = async (): Promise<number> =>
        (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))')).rows[0]!.n;
      const sent: Promise<void>[] = [];
      for (const [i, w] of ahead.entries()) {
        sent.push(w.log.append(turn(1, `ahead ${i}`), true));
        for (let tries = 0; tries < 100 && (await waitingOnAdmin()) < i + 1; tries++) await new Promise((r) => setTimeout(r, 50));
        expect(await waitingOnAdmin()).toBe(i + 1);
      }
      sent.push(...later.map((w, i) => w.log.append(turn(1, `later ${i}`), true)));
      await admin.query('ROLLBACK');
      await Promise.all(sent);
    } finally {
      await admin.end();
    }
    const stored = await Promise.all(writers.map((w) => rows(w.id)));
    expect(stored.map((r) => r.map((x) => x.c))).toEqual([...ahead.map((_, i) => [`ahead ${i}`]), ...later.map((_, i) => [`later ${i}`])]);
    const xmins = stored.map((r) => r[0]!.xmin);
    expect(new Set(xmins.slice(GROUPS_IN_FLIGHT)).size).toBe(1);
    expect(new Set(xmins).size).toBe(GROUPS_IN_FLIGHT + 1);
  });

  it('a session taken over stores nothing of its group and its writer is told; the others of the group are stored', async () => {
    const writers = await held(4);
    const taken = writers[1]!;
    const others = writers.filter((w) => w !== taken);
    await runSql(url, 'UPDATE chatkeep.sessions SET lock_epoch = lock_epoch + 1 WHERE id = $1', [taken.id]);
    const appended = await Promise.allSettled(writers.map((w, i) => w.log.append(turn(1, `w${i}`), true)));
    expect(appended[1]).toMatchObject({ status: 'rejected', reason: expect.any(LockSupersededError) });
    expect(appended.filter((a) => a.status === 'fulfilled')).toHaveLength(writers.length - 1);
    expect(await rows(taken.id)).toEqual([]);
    const grouped = await Promise.all(others.map((w) => rows(w.id)));
    expect(grouped.map((r) => r.map((x) => x.c))).toEqual(['w0', 'w2', 'w3'].map((c) => [c]));
    expect(new Set(grouped.map((r) => r[0]!.xmin)).size).toBe(1);
  });

  it('an event stored before, sent again in a group, counts as written once; the group\'s other events are stored', async () => {
    const writers = await held(3);
    const again = writers[1]!;
    await again.log.append(turn(1, 'again'), true);
    // The answer to that append was lost, say: it is sent again, with the others' first turns.
    await Promise.all(writers.map((w, i) => w.log.append(w === again ? turn(1, 'again') : turn(1, `w${i}`), true)));
    expect((await rows(again.id)).map((r) => r.c)).toEqual(['again']);
    for (const [i, w] of writers.entries()) if (w !== again) expect((await rows(w.id)).map((r) => r.c)).toEqual([`w${i}`]);
  });

  it('a group whose connection is cut under its statement: its session\'s writer told it failed, the others\' batches stored alone', async () => {
    // All three arrive in one turn: one group, on the first one's connection.
    const writers = await held(3);
    // The group's statement waits for a row lock of the admin's, on its first session's row (the
    // one whose connection it runs on); its connection is cut meanwhile.
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('SELECT 1 FROM chatkeep.sessions WHERE id = $1 FOR UPDATE', [writers[0]!.id]);
      const appended = Promise.allSettled(writers.map((w, i) => w.log.append(turn(1, `w${i}`), true)));
      const leader = async (): Promise<number | undefined> =>
        (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))')).rows[0]?.pid;
      let pid: number | undefined;
      for (let i = 0; i < 100 && pid === undefined; i++) pid = await leader().then((p) => p ?? new Promise<undefined>((r) => setTimeout(r, 50)));
      expect(pid).toBeDefined();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.query('ROLLBACK');
      const told = await appended;
      for (const [i, w] of writers.entries()) {
        const stored = (await rows(w.id)).map((r) => r.c);
        expect(stored).toEqual(told[i]!.status === 'fulfilled' ? [`w${i}`] : []);
      }
      // The cut connection's session lost its lock; the others' own connections stored their batches.
      expect(told.map((t) => t.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    } finally {
      await admin.end();
    }
  });

  it('a member\'s group of her own sessions and one shared with her for writing: each event marked as whose it is, the shared one\'s listing moved', async () => {
    const team = await twoMembers('gc');
    try {
      const { annStore, bobStore } = team;
      const { id: shared } = await savedSession(bobStore, AT, ['bob']);
      await runSql(team.bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee, writable) VALUES ($1, $2, true)', [shared, team.ann.role]);
      const own = await Promise.all(Array.from({ length: GROUPS_IN_FLIGHT + 1 }, (_, w) => savedSession(annStore, new Date(AT.getTime() + (w + 1) * 1000), [`ann ${w}`])));
      const ids = [...own.map((s) => s.id), shared];
      const logs = await Promise.all(ids.map(async (id) => annStore.openLog(id, await annStore.lock(id, () => undefined))));
      const at = new Date(AT.getTime() + 3_600_000).toISOString();
      await Promise.all(logs.map((log, i) => log.append({ ...turn(1, `ann to ${i}`), ts: at }, true)));
      const stored = await runSql<{ session_id: string; by_owner: boolean; c: string; xmin: string }>(
        team.url, "SELECT session_id, by_owner, payload->>'content' AS c, xmin::text FROM chatkeep.events WHERE session_id = ANY($1)", [ids]);
      const of = (id: string) => stored.find((r) => r.session_id === id)!;
      expect(ids.map((id, i) => [of(id).c, of(id).by_owner])).toEqual(ids.map((id, i) => [`ann to ${i}`, id !== shared]));
      // The last of her own and the shared one went together.
      expect(of(shared).xmin).toBe(of(own.at(-1)!.id).xmin);
      const [listed] = await runSql<{ journal_seq: string; updated_at: Date }>(team.url, 'SELECT journal_seq, updated_at FROM chatkeep.sessions WHERE id = $1', [shared]);
      expect(listed).toEqual({ journal_seq: '1', updated_at: new Date(at) });
    } finally {
      await team.close();
    }
  });
});
