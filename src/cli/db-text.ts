/** What `chatkeep db status` and `db setup` print for people (`--json` prints the data itself). */
import type { DbStatus } from '../store/postgres/db-status.js';
import type { SetupResult } from '../store/postgres/team-setup.js';
import { TEAM_ROLE } from '../store/postgres/team/team-roles.js';

export function statusLines(s: DbStatus): string[] {
  const schema = !s.schemaUsable
    ? `schema chatkeep owned by ${s.schemaOwner}, which ${s.role} may not use (not a member of ${TEAM_ROLE}): the admin should run chatkeep db setup --member ${s.role}`
    : s.schemaVersion === null
      ? 'no chatkeep schema yet'
      : `schema chatkeep version ${s.schemaVersion}${s.schemaVersion === s.expectedVersion ? '' : ` (this chatkeep writes ${s.expectedVersion})`}, owned by ${s.schemaOwner}`;
  const who = s.bypassesRowSecurity
    ? `${s.role} (a superuser or BYPASSRLS role: row-level security does not apply to it, it sees every row)`
    : `${s.role}${s.teamMember ? `, a member of ${TEAM_ROLE}` : ''} (row-level security applies: its own sessions and those shared with it)`;
  const width = Math.max(0, ...s.tables.map((t) => t.table.length));
  const tables = s.tables.map((t) => {
    const state = t.table === 'migrations' ? 'no rows of anyone (read-only for members)' : !t.rowSecurity ? 'NOT SECURED' : t.forced ? 'forced' : 'enabled, NOT forced for its owner';
    return `  ${t.table.padEnd(width)}  ${state}${t.policies.length > 0 ? ` · ${t.policies.join(', ')}` : ''}`;
  });
  return [
    `Store    ${s.location}: ${schema}`,
    `Role     ${who}`,
    `Pooler   ${s.pooled.verdict} (${s.pooled.reason})`,
    `TLS      ${s.tls}`,
    `Row-level security${s.unsecured.length > 0 ? ` (not secured: ${s.unsecured.join(', ')})` : ''}:`,
    ...(tables.length > 0 ? tables : ['  (no tables yet)']),
  ];
}

export function setupLines(r: SetupResult, statusCommand: string): string[] {
  const members = [...r.added.map((m) => `${m} (added)`), ...r.alreadyMembers.map((m) => `${m} (already a member)`)];
  return [
    `Set up ${r.location} for a team: schema chatkeep version ${r.schemaVersion}${r.createdSchema ? ' (created)' : ''}, owned by chatkeep_owner, row-level security forced on every table.`,
    ...(r.handedOverFrom !== undefined ? [`The sessions ${r.handedOverFrom} kept here alone stay ${r.handedOverFrom}'s; ${r.handedOverFrom} is now a member.`] : []),
    members.length > 0 ? `Members of ${TEAM_ROLE}: ${members.join(', ')}.` : `No members named: add one with --member ROLE.`,
    'Each member connects as their own login role and sees only their own sessions and those shared with them.',
    'Check with:',
    statusCommand,
  ];
}
