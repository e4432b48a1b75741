/**
 * Each member's plain SQL against every table (test/helpers/forgeries.ts), as a writable grantee,
 * a read-only grantee and a member the session is not shared with. Counted: statements that
 * changed or removed something (`forgeriesTaken`), the owner's rows that changed
 * (`ownerTablesChanged`), and rows of the owner's holding the forged text (`forgedRowsOwnerSees`).
 */
import { attempt, fingerprint, forgedRows, forgeries } from '../../test/helpers/forgeries.js';
import type { Tally } from '../part.js';
import type { Team } from './pg-team.js';

export async function forgeryTrial(team: Team, tally: Tally): Promise<void> {
  const before = await fingerprint(team.db, team.ann.role);
  for (const member of [team.bob, team.cat, team.dan]) {
    for (const f of forgeries(team.id, team.ann.role)) {
      tally.add('forgeriesTried');
      const r = await attempt(member.url, f.sql, f.params);
      if (r.rows > 0) tally.fail('forgeriesTaken', `${member.role} on ${f.table}: ${f.sql}`);
    }
  }
  const after = await fingerprint(team.db, team.ann.role);
  for (const [table, hash] of Object.entries(before)) if (after[table] !== hash) tally.fail('ownerTablesChanged', `ann's rows in ${table} changed`);
  const forged = await forgedRows(team.db, team.ann.role);
  if (forged > 0) tally.fail('forgedRowsOwnerSees', `${forged} row(s) of ann's hold the forged text`);
}
