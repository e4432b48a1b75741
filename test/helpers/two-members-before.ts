/**
 * The starting point of the row-security upgrade tests: a database at the schema just before a
 * migration, two members, and their sessions (fillTwoMembers: the first member's even, the other's
 * odd; IDs `<prefix>a-1`…), each with two message events ('message K of <ID>'), before the team is set up.
 */
import { runSql } from './postgres.js';
import { databaseBefore, fillTwoMembers } from './schema-at.js';
import { person, type Person } from './team.js';

export async function twoMembersBefore(migration: string, prefix: string, sessions: number): Promise<{ url: string; a: Person; b: Person }> {
  const url = await databaseBefore(migration);
  const [a, b] = [await person(url, `${prefix}a`), await person(url, `${prefix}b`)];
  await fillTwoMembers(url, `${prefix}a-`, [a.role, b.role], sessions);
  await runSql(url, `INSERT INTO chatkeep.events (session_id, seq, ts, type, payload, event_id)
    SELECT s.id, k, timestamptz '2026-11-24 10:00Z', 'message', json_build_object('role', 'user', 'content', 'message ' || k || ' of ' || s.id), 'e' || k
    FROM chatkeep.sessions s, generate_series(1, 2) k`);
  return { url, a, b };
}
