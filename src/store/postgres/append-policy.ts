/**
 * The append's row security, as small a plan as the same rules allow. Each execution of a
 * prepared statement starts its plan anew: every subquery a policy adds is opened, its
 * expressions compiled, and a shares subquery written `(id, owner) IN (SELECT … FROM shares)`
 * becomes a hashed subplan, whose memory contexts and hash table setup are made on every
 * execution even when the owner's branch of the `OR` before it answers first. The owner's append
 * carried five of them (the events policy read `sessions` twice, each read with the sessions
 * policy's shares subquery, plus the writer's own; the fence's share lock adds the sessions
 * policies for reading and for changing): at 200 writers most of what an append costs the server
 * above a bare INSERT (docs/internals.md, "The append's plan, started on every execution").
 *
 * The same rules, said so that the owner's append does not carry the grantee's part:
 * - `events_append`: one read of the session's row (the sessions policy for reading still
 *   applies to it); its owner appends, or a writable grantee appends after the last event and
 *   never marked `by_owner`, the grantee's part a call of `chatkeep.writable_share`, which runs
 *   only when the session is not the one appending's (a function is opaque to the planner, so its
 *   subquery is no subplan of the append);
 * - `sessions_update` (which a share lock of the row checks too): its owner, or a writable grantee
 *   by the same function. Changing a session is one row at a time (a snapshot, a taking, a trash),
 *   so the function runs at most once a row, never over a listing's many.
 * The sessions policy for reading keeps its subquery: a listing reads many rows, which one hashed
 * pass over the shares serves (team/row-security.ts); READ_POLICY_MIGRATION, below, lets the
 * planner choose that pass or a probe by key, plan by plan.
 */
import { TEAM } from './team/row-security.js';

export const APPEND_POLICY_MIGRATION = `
  CREATE FUNCTION chatkeep.writable_share(sid text, sowner text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT (sid, sowner) IN (SELECT sh.session_id, sh.owner FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, '${TEAM}') AND sh.writable)
  $$;
  ALTER POLICY events_append ON chatkeep.events WITH CHECK (EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.id = events.session_id
    AND (s.owner = current_user OR (NOT events.by_owner AND chatkeep.writable_share(s.id, s.owner) AND events.seq > chatkeep.last_seq(s.id)))));
  ALTER POLICY sessions_update ON chatkeep.sessions USING (owner = current_user OR chatkeep.writable_share(id, owner));
`;

/**
 * The sessions policy for reading with its grantee's part correlated (`EXISTS … WHERE
 * sh.session_id = sessions.id`), the same rows readable. Every append reads its session's row
 * twice under this policy (the fence's share lock, the events policy's check), and written
 * `(id, owner) IN (…)` the part was a subplan the planner always hashes, set up on every
 * execution of the kept plan though the owner's branch answers first. Correlated, the planner
 * picks per plan: a hashed pass for a listing's or a search's many rows, a probe of the shares'
 * key for a single row, whose setup is a few pointers (docs/internals.md, "The read policy
 * probed by key for one row").
 */
export const READ_POLICY_MIGRATION = `
  ALTER POLICY sessions_read ON chatkeep.sessions USING (owner = current_user
    OR EXISTS (SELECT 1 FROM chatkeep.shares sh WHERE sh.session_id = sessions.id AND sh.owner = sessions.owner AND sh.grantee IN (current_user, '${TEAM}')));
`;
