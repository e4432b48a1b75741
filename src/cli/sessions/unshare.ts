/** `chatkeep sessions unshare ID`: stop sharing a session with a role, the team, or everyone. */
import { SHARING_GROUP } from './groups.js';
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const unshare: SessionsSubcommand = {
  name: 'unshare',
  args: ONE_ID,
  options: { json: true, with: true, team: true },
  usage: [{ synopsis: 'sessions unshare ID [--with ROLE|--team] [--json]', text: ['stop sharing it with that role, the team, or (neither) everyone'] }],
  group: SHARING_GROUP,
  // At most one of --with and --team (neither: everyone).
  check: (_args, options, fail) => {
    if (options.with !== undefined && options.team) throw fail('use only one of --with ROLE and --team');
  },
  run: async (command, environment) => (await import('./share-run.js')).runShare(command, environment),
};
