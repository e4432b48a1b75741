/**
 * Sharing a session with another role or the whole team (docs/design.md §9), and who a session
 * belongs to. Row-level security (row-security.ts) does the enforcing: these functions only
 * write and read `chatkeep.shares`, and refuse in one line what the policies would refuse.
 */
import type { Pool } from 'pg';
import { UnknownSessionError, UserError } from '../../../session/api/errors.js';
import type { Target } from '../connect.js';
import { query } from '../connect.js';
import { findSession } from '../reading.js';
import { OWNER_SQL, TEAM } from './row-security.js';

/** A grantee as people read it: `the team` or a role's name. */
export function granteeLabel(grantee: string): string {
  return grantee === TEAM ? 'the team' : grantee;
}

export interface Share {
  grantee: string;
  writable: boolean;
}

/** Who a session belongs to, as the role asking sees it. */
export interface Ownership {
  id: string;
  owner: string;
  /** The role asking. */
  role: string;
  /** May the role asking write to it (its own, shared writable, or a role that bypasses row security). */
  writable: boolean;
  /** Its shares (all of them for its owner; for anyone else those that name them or the team). */
  shares: Share[];
}

/** Refused to write: the session is another role's, shared read-only (or not at all, to a role that still sees it). */
export class ReadOnlyShareError extends UserError {
  constructor(
    readonly id: string,
    readonly owner: string,
  ) {
    super(`Session ${id} belongs to ${owner}, who shared it with you read-only.`, 'E_READ_ONLY_SHARE', 2, {
      to: 'Continue in a copy of your own with',
      run: ['--fork', id],
      call: `sessions.fork('${id}')`,
    });
  }
}

/** The ownership of session `idOrPrefix` (refused as unknown when this role cannot see it). */
export async function ownership(pool: Pool, target: Target, idOrPrefix: string): Promise<Ownership> {
  const { id } = await findSession(pool, target, idOrPrefix);
  const [found] = await query<{ owner: string; role: string; writable: boolean }>(pool, target, OWNER_SQL, [id]);
  if (!found) throw new UnknownSessionError(id);
  const row = { owner: found.owner, role: found.role, writable: found.writable };
  const shares = await query<Share>(pool, target, 'SELECT grantee, writable FROM chatkeep.shares WHERE session_id = $1 AND owner = $2 ORDER BY grantee', [
    id,
    row.owner,
  ]);
  return { id, ...row, shares };
}

function onlyTheOwner(o: Ownership): UserError {
  return new UserError(`Session ${o.id} belongs to ${o.owner}: only ${o.owner} can share it or stop sharing it.`, 'E_NOT_OWNER');
}

/** Shares a session of this role's with `grantee` (a role, or TEAM); sharing again changes read-only/writable. */
export async function share(pool: Pool, target: Target, idOrPrefix: string, grantee: string, writable: boolean): Promise<Ownership> {
  const o = await ownership(pool, target, idOrPrefix);
  if (o.owner !== o.role) throw onlyTheOwner(o);
  if (grantee !== TEAM) {
    const [role] = await query<{ login: boolean }>(pool, target, 'SELECT rolcanlogin AS login FROM pg_roles WHERE rolname = $1', [grantee]);
    if (!role) throw new UserError(`No role named \`${grantee}\` on the server at ${target.location}: give the name a person logs in with (or --team).`, 'E_NO_ROLE');
    if (grantee === o.role) throw new UserError(`Session ${o.id} is already yours (${o.role}): share it with another role, or --team.`, 'E_USAGE');
  }
  await query(
    pool,
    target,
    `INSERT INTO chatkeep.shares (session_id, grantee, writable) VALUES ($1, $2, $3)
     ON CONFLICT (session_id, grantee) DO UPDATE SET writable = EXCLUDED.writable, shared_at = now()`,
    [o.id, grantee, writable],
  );
  return ownership(pool, target, o.id);
}

/** Stops sharing a session with `grantee` (undefined: with everyone); the grantees it was shared with. */
export async function unshare(pool: Pool, target: Target, idOrPrefix: string, grantee: string | undefined): Promise<{ ownership: Ownership; removed: string[] }> {
  const o = await ownership(pool, target, idOrPrefix);
  if (o.owner !== o.role) throw onlyTheOwner(o);
  const removed = await query<{ grantee: string }>(
    pool,
    target,
    'DELETE FROM chatkeep.shares WHERE session_id = $1 AND ($2::text IS NULL OR grantee = $2) RETURNING grantee',
    [o.id, grantee ?? null],
  );
  return { ownership: await ownership(pool, target, o.id), removed: removed.map((r) => r.grantee).sort() };
}
