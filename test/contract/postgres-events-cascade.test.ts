/**
 * A session's events go with it (events-cascade.ts: a trigger, no foreign key) even when its
 * deletion meets an append: the delete waits for the append's transaction, which holds the
 * session's row through its fence, and then deletes what it committed; an append after the
 * deletion finds no row under its epoch and stores nothing. Nothing is left of the session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PgLock } from '../../src/store/postgres/lock.js';
import { eventually } from '../helpers/eventually.js';
import { runSql } from '../helpers/postgres.js';
import { twoMembers, type TwoMembers } from '../helpers/team-stores.js';
import { AT, savedSession } from './contract-kit.js';

const turn = (seq: number): { seq: number; id: string; ts: string; type: 'message'; payload: { role: string; content: string } } => ({
  seq, id: `ec-${seq}`, ts: new Date(AT.getTime() + seq * 60_000).toISOString(), type: 'message', payload: { role: 'user', content: `turn ${seq}` },
});

describe('PostgreSQL: a session deleted while it is appended to', () => {
  let team: TwoMembers | undefined;
  afterEach(async () => {
    await team?.close();
  });

  it('deletes the event the append committed while the delete waited, and stores none after', async () => {
    team = await twoMembers('ecr');
    const { id } = await savedSession(team.annStore, AT, ['one']);
    const lock = (await team.annStore.lock(id, () => undefined)) as PgLock;
    const log = await team.annStore.openLog(id, lock);
    await log.append(turn(1), true);
    // The append's statement inside a transaction left open: its fence holds the session's row.
    await lock.write((c) => c.query('BEGIN'));
    await log.append(turn(2), true);

    const deleted = runSql<{ n: number }>(team.ann.url, 'WITH gone AS (DELETE FROM chatkeep.sessions WHERE id = $1 RETURNING id) SELECT count(*)::int AS n FROM gone', [id]);
    await eventually(async () => {
      const [waiting] = await runSql<{ n: number }>(team!.url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'", [team!.ann.role]);
      expect(waiting!.n).toBe(1);
    }, 10_000);
    await lock.write((c) => c.query('COMMIT'));
    expect(await deleted).toEqual([{ n: 1 }]);
    expect(await runSql(team.url, 'SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1', [id])).toEqual([{ n: 0 }]);

    // Refused: the session, hers, is gone (team/revoked.ts tells it from a share revoked), nothing stored.
    await expect(log.append(turn(3), true)).rejects.toMatchObject({ name: 'SessionDeletedError', code: 'E_SESSION_DELETED' });
    expect(await runSql(team.url, 'SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1', [id])).toEqual([{ n: 0 }]);
    await lock.release();
  });
});
