/**
 * Squatting on a team's database: a member who holds chatkeep's advisory locks by the hundred,
 * or issues the session IDs of the coming seconds ahead of time, blocks nobody else's chat, and a
 * refusal names a holder that exists.
 */
import { describe, expect, inject, it } from 'vitest';
import { baseIdFor } from '../../src/session/api/ids.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { runPiped } from '../helpers/pty.js';
import { createDatabase } from '../helpers/postgres.js';
import { as, chat, ok, person } from '../helpers/team.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('squatting on a team database', () => {
  it("a member holding chatkeep's advisory locks or another's session IDs blocks no one; a hand-held lock names its connection", async () => {
    const db = await createDatabase(inject('postgresAdminUrl'));
    const [ann, bob, dan] = await Promise.all(['ann', 'bob', 'dan'].map((n) => person(db, n)));
    await ok(['db', 'setup', ...[ann, bob, dan].flatMap((p) => ['--member', p!.role])], as(db));
    const first = await chat(ann!, ['before the squat']);
    const { default: pg } = await import('pg');
    const squatter = new pg.Client({ connectionString: dan!.url });
    await squatter.connect();
    try {
      await squatter.query('SELECT pg_advisory_lock($1, g) FROM generate_series(1, 200) g', [LOCK_SPACE]);
      // Resuming, a new chat and the trash go on as if dan were not there.
      await chat(ann!, ['after the squat'], ['--session-id', first]);
      const second = await chat(ann!, ['a new chat']);
      await ok(['sessions', 'rm', second], ann!.options);

      // IDs are issued once across the database: dan issues every numbered ID of a second ahead.
      const at = new Date('2031-05-06T07:08:09Z');
      const base = baseIdFor(at);
      await squatter.query("INSERT INTO chatkeep.ids (id) SELECT CASE WHEN n = 1 THEN $1 ELSE $1 || '-' || n END FROM generate_series(1, 9999) n", [base]);
      const store = await openPostgresStore(ann!.url, { interpreter, cwd: tmpHome('chatkeep-squat-') });
      try {
        const id = await store.reserveId(at, store.project);
        expect(id.startsWith(`${base}-`)).toBe(true);
        expect(Number(id.slice(base.length + 1))).toBeNaN();
      } finally {
        await store.close();
      }
    } finally {
      await squatter.end();
    }

    // bob, who may write ann's session, holds its key by hand: ann is refused, told which connection has it.
    await ok(['sessions', 'share', first, '--with', bob!.role, '--write'], ann!.options);
    const holder = new pg.Client({ connectionString: bob!.url, application_name: 'psql' });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, key) FROM chatkeep.lock_keys WHERE session_id = $2', [LOCK_SPACE, first]);
      const r = await runPiped(['--session-id', first, '--autosave', 'off'], 'hello\n/quit\n', ann!.options);
      expect(r.code, r.stderr).toBe(3);
      const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      expect(r.stderr).toContain(`Session ${first} is in use by process ${pid} on the database server (a connection of role ${bob!.role}, psql that is not chatkeep's)`);
    } finally {
      await holder.end();
    }
  });
});
