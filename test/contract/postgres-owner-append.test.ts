/**
 * The listing's trigger (`note_appended`) skips the owner's own appends and notes a grantee's
 * (owner-append.ts): each event says whether its session's owner appended it, and the events
 * policy lets only the owner say so. Counted by the server (`pg_stat_user_functions`): none of
 * the owner's fenced appends (nor her lock's warm-up) calls the trigger; each of a grantee's
 * events does, and moves the owner's listing (and her lock's warm-up does, rolled back).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/format/store.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { eventually } from '../helpers/eventually.js';
import { runSql } from '../helpers/postgres.js';
import { twoMembers, type TwoMembers } from '../helpers/team-stores.js';
import { AT, savedSession } from './contract-kit.js';

const turn = (seq: number, content: string): SessionEvent => ({ seq, id: `oa-${seq}`, ts: new Date(AT.getTime() + seq * 60_000).toISOString(), type: 'message', payload: { role: 'user', content } });

describe('PostgreSQL: the owner\'s append and the listing\'s trigger', () => {
  let team: TwoMembers;
  const setUp = async (prefix: string): Promise<void> => {
    team = await twoMembers(prefix);
    // Counted by the server from each new connection on (a lock's connection is new).
    await runSql(team.url, `ALTER DATABASE ${new URL(team.url).pathname.slice(1)} SET track_functions = 'pl'`);
  };
  afterEach(async () => {
    await team?.close();
  });

  const calls = async (): Promise<number> =>
    (await runSql<{ calls: number }>(team.url, "SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_user_functions WHERE schemaname = 'chatkeep' AND funcname = 'note_appended'"))[0]!.calls;
  /**
   * Calls of `chatkeep.note_appended`, asked until they reach `expected` (a connection reports
   * what it counted when it ends, which a released lock's does): what they are after 5 s if not.
   */
  const noted = (expected: number): Promise<number> =>
    eventually(async () => {
      const n = await calls();
      if (n !== expected) throw new Error(`note_appended called ${n} times, not ${expected}`);
      return n;
    }, 5_000).catch(calls);
  const listing = async (id: string): Promise<unknown> =>
    (await runSql(team.url, 'SELECT updated_at, journal_seq, message_count FROM chatkeep.sessions WHERE id = $1', [id]))[0];
  const appendAll = async (store: PostgresStore, id: string, events: SessionEvent[]): Promise<void> => {
    const lock = await store.lock(id, () => undefined);
    const log = await store.openLog(id, lock);
    await Promise.all(events.map((e) => log.append(e, true)));
    await log.close();
    await lock.release();
  };

  it('the owner\'s fenced appends call no trigger and are marked the owner\'s; a grantee\'s call it per event and move the listing', async () => {
    await setUp('oa');
    const { id } = await savedSession(team.bobStore, AT, ['one']);
    await runSql(team.bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee, writable) VALUES ($1, $2, true)', [id, team.ann.role]);
    const before = await listing(id);

    for (let seq = 1; seq <= 3; seq++) await appendAll(team.bobStore, id, [turn(seq, `bob ${seq}`)]);
    expect(await noted(0)).toBe(0);
    // Nothing for the trigger to do: the owner's chatkeep writes the listing with its snapshot.
    expect(await listing(id)).toEqual(before);

    // Two events of the grantee's (one batch or two): each is noted, and the listing moves. Her
    // lock's warm-up calls it once more, for its probe event, whose transaction is rolled back:
    // the listing below moved by the two events only.
    await appendAll(team.annStore, id, [turn(4, 'ann 4'), turn(5, 'ann 5')]);
    expect(await noted(3)).toBe(3);
    expect(await listing(id)).toMatchObject({ journal_seq: '5', updated_at: new Date(turn(5, '').ts), message_count: (before as { message_count: number }).message_count + 2 });

    const rows = await runSql(team.url, "SELECT seq::int, by_owner, payload->>'content' AS content FROM chatkeep.events WHERE session_id = $1 ORDER BY seq", [id]);
    expect(rows).toEqual([
      { seq: 1, by_owner: true, content: 'bob 1' },
      { seq: 2, by_owner: true, content: 'bob 2' },
      { seq: 3, by_owner: true, content: 'bob 3' },
      { seq: 4, by_owner: false, content: 'ann 4' },
      { seq: 5, by_owner: false, content: 'ann 5' },
    ]);
  });

  it('a grantee cannot mark an append the owner\'s (so as to keep it off the listing): the policy refuses it, nothing stored', async () => {
    await setUp('ob');
    const { id } = await savedSession(team.bobStore, AT, ['two']);
    await runSql(team.bob.url, 'INSERT INTO chatkeep.shares (session_id, grantee, writable) VALUES ($1, $2, true)', [id, team.ann.role]);
    const forged = runSql(team.ann.url, "INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, by_owner) VALUES ($1, 1, now(), 'message', '{}', true)", [id]);
    await expect(forged).rejects.toThrow(/row-level security policy/);
    // The same append, not marked, is the grantee's to make (and is noted).
    await runSql(team.ann.url, "INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, 1, now(), 'message', '{}')", [id]);
    expect(await runSql(team.url, 'SELECT seq::int, by_owner FROM chatkeep.events WHERE session_id = $1', [id])).toEqual([{ seq: 1, by_owner: false }]);
  });
});
