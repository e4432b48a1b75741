/**
 * What a role that lacks a privilege is told (docs/design.md §9): one line saying which privilege
 * and what the admin should run, exit 2. A missing privilege is a set-up to finish, never a bug.
 */
import { UserError } from '../../../session/api/errors.js';
import { OWNER_ROLE } from './team-roles.js';

interface Where {
  url: string;
  location: string;
  role?: string;
}

/** The role chatkeep works as: as the server said, else as the URL names it. */
export function roleOf(target: Where): string | undefined {
  if (target.role) return target.role;
  try {
    return decodeURIComponent(new URL(target.url).username) || undefined;
  } catch {
    return undefined;
  }
}

/** `err` as the line a person reads when it is PostgreSQL refusing a privilege (SQLSTATE 42501), else undefined. */
export function privilegeError(err: unknown, reason: string, target: Where): UserError | undefined {
  if ((err as { code?: unknown } | null)?.code !== '42501') return undefined;
  const role = roleOf(target);
  const who = role !== undefined ? `Role ${role}` : 'This role';
  if (/row-level security|owner never changes|only its owner changes/i.test(reason)) {
    return new UserError(
      `${who} may not change that in the session store at ${target.location} (${reason}): it belongs to another role and is not shared with ${role ?? 'it'} for writing.`,
      'E_STORE_PRIVILEGE',
    );
  }
  if (/must be owner/i.test(reason)) {
    return new UserError(`${who} may not change the chatkeep schema at ${target.location} (${reason}), which belongs to ${OWNER_ROLE}.`, 'E_STORE_PRIVILEGE', 2, {
      to: 'The admin should run',
      run: ['db', 'setup'],
    });
  }
  return new UserError(`${who} lacks a privilege on the session store at ${target.location} (${reason}).`, 'E_STORE_PRIVILEGE', 2, {
    to: 'The admin should run',
    run: ['db', 'setup', '--member', role ?? 'ROLE'],
  });
}
