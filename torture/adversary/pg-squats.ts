/**
 * Squats: `dan` holds chatkeep's advisory locks 1…200 (the keys a sequence would have given) and
 * issues the numbered session IDs of the coming seconds ahead of time, while ann resumes her
 * session, starts a new chat and trashes it. Counted: ann's commands that failed (`membersBlocked`).
 */
import { LOCK_SPACE } from '../../src/store/postgres/lock-key.js';
import { baseIdFor } from '../../src/session/api/ids.js';
import type { Tally } from '../part.js';
import { attemptCli, chatLine, type Team } from './pg-team.js';

export async function squatTrial(team: Team, tally: Tally): Promise<void> {
  const { default: pg } = await import('pg');
  const squatter = new pg.Client({ connectionString: team.dan.url });
  await squatter.connect();
  try {
    await squatter.query('SELECT pg_advisory_lock($1, g) FROM generate_series(1, 200) g', [LOCK_SPACE]);
    // Every numbered ID chatkeep would try first, for the next minute.
    const bases = Array.from({ length: 60 }, (_, i) => baseIdFor(new Date(Date.now() + i * 1000)));
    await squatter.query(
      "INSERT INTO chatkeep.ids (id) SELECT CASE WHEN n = 1 THEN b ELSE b || '-' || n END FROM unnest($1::text[]) b, generate_series(1, 20) n ON CONFLICT DO NOTHING",
      [bases],
    );
    tally.add('squatsTried', 2);
    const blocked = (why: string | undefined): void => {
      if (why) tally.fail('membersBlocked', why);
    };
    blocked((await chatLine(team.ann, 'after the squat', ['--session-id', team.id])).failure);
    const made = await chatLine(team.ann, 'a new chat while squatted');
    blocked(made.failure);
    if (made.id) blocked(await attemptCli(['sessions', 'rm', made.id], '', team.ann.run));
    blocked((await chatLine(team.bob, 'bob after the squat', ['--session-id', team.id])).failure);
  } finally {
    await squatter.end();
  }
}
