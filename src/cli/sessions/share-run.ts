/**
 * `chatkeep sessions share|unshare ID` (docs/design.md §9): on a team's PostgreSQL server, lets
 * another role (or the whole team) read a session of yours, or also add to it; and stops it.
 */
import { InvalidIdError, UserError } from '../../session/api/errors.js';
import { isValidId } from '../../session/api/ids.js';
import type { Ownership } from '../../store/postgres/team/sharing.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

export async function runShare(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const id = command.id!;
  if (!isValidId(id)) throw new InvalidIdError(id);
  const url = environment.store;
  if (url === undefined) {
    throw new UserError(
      `Sessions in a data directory are yours alone: sharing needs a team's PostgreSQL server (CHATKEEP_STORE=postgres://USER@HOST/DATABASE).`,
      'E_STORE',
    );
  }
  const [{ withPool }, sharing, { TEAM }] = await Promise.all([
    import('../../store/postgres/pool-scope.js'),
    import('../../store/postgres/team/sharing.js'),
    import('../../store/postgres/team/row-security.js'),
  ]);
  const grantee = command.options.team ? TEAM : command.options.with;
  const json = command.options.json === true;
  if (command.action === 'share') {
    const writable = command.options.write === true;
    const o = await withPool(url, environment.env, (pool, target) => sharing.share(pool, target, id, grantee!, writable), { migrate: true });
    environment.stdout.write(
      json ? `${JSON.stringify(o, null, 2)}\n` : `Shared ${o.id} with ${sharing.granteeLabel(grantee!)} (${writable ? 'read and write' : 'read-only'}). ${sharedWith(o, sharing.granteeLabel)}\n`,
    );
    return 0;
  }
  const { ownership: o, removed } = await withPool(url, environment.env, (pool, target) => sharing.unshare(pool, target, id, grantee), { migrate: true });
  const text =
    removed.length === 0
      ? `${o.id} was not shared${grantee !== undefined ? ` with ${sharing.granteeLabel(grantee)}` : ''}: nothing changed.`
      : `Stopped sharing ${o.id} with ${removed.map(sharing.granteeLabel).join(', ')}. ${sharedWith(o, sharing.granteeLabel)}`;
  environment.stdout.write(json ? `${JSON.stringify({ ...o, removed }, null, 2)}\n` : `${text}\n`);
  return 0;
}

/** `Now shared with: the team (read-only), bob (read and write).` or `It is yours alone now.` */
export function sharedWith(o: Ownership, label: (grantee: string) => string): string {
  if (o.shares.length === 0) return 'It is yours alone now.';
  return `Now shared with: ${o.shares.map((s) => `${label(s.grantee)} (${s.writable ? 'read and write' : 'read-only'})`).join(', ')}.`;
}

/** A PostgreSQL session's ownership for `sessions show`, and the line it shows (none for one's own unshared session). */
export async function ownershipFor(url: string | undefined, env: Record<string, string | undefined>, id: string): Promise<{ ownership: Ownership; line?: string } | undefined> {
  if (url === undefined) return undefined;
  const [{ withPool }, { ownership, granteeLabel }] = await Promise.all([import('../../store/postgres/pool-scope.js'), import('../../store/postgres/team/sharing.js')]);
  const o = await withPool(url, env, (pool, target) => ownership(pool, target, id), { migrate: false });
  if (o.owner !== o.role) return { ownership: o, line: `  ${o.owner}'s session, shared with you (${o.writable ? 'read and write' : 'read-only'})` };
  return o.shares.length > 0 ? { ownership: o, line: `  ${sharedWith(o, granteeLabel).replace(/^Now shared/, 'shared').replace(/\.$/, '')}` } : { ownership: o };
}
