/** The options of `chatkeep sessions share|unshare` (issue 22 item 2), kept beside the sessions table. */
import type { OptionSpec } from './option-spec.js';

export const SHARE_OPTIONS = {
  with: { type: 'string', value: 'ROLE', description: "share, unshare: the database role (a person's login) to share with or stop sharing with", actions: ['share', 'unshare'] },
  team: { type: 'boolean', description: 'share, unshare: every member of the team', actions: ['share', 'unshare'] },
  write: { type: 'boolean', description: 'share: let them add to it too (default: read-only)', actions: ['share'] },
} as const satisfies Record<string, OptionSpec<'share' | 'unshare'>>;

export const SHARE_USAGE = {
  share: [
    '  chatkeep sessions share ID --with ROLE|--team [--write] [--json]',
    '                                            let another role (or the whole team) read one of your sessions',
    '                                            on a PostgreSQL server; --write lets them add to it',
  ],
  unshare: [
    '  chatkeep sessions unshare ID [--with ROLE|--team] [--json]',
    '                                            stop sharing it with that role, the team, or (neither) everyone',
  ],
};

/** `share` names exactly one of --with and --team; `unshare` at most one. */
export function checkShare(action: 'share' | 'unshare', values: { with?: string | undefined; team?: boolean | undefined }, usage: (what: string) => Error): void {
  if (values.with !== undefined && values.team) throw usage('use only one of --with ROLE and --team');
  if (action === 'share' && values.with === undefined && !values.team) throw usage('sessions share needs --with ROLE or --team: whom to share with');
}
