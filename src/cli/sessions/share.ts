/** `chatkeep sessions share ID`: another role (or the team) may read, or also add to, a session (PostgreSQL). */
import { SHARING_GROUP } from './groups.js';
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const share: SessionsSubcommand = {
  name: 'share',
  args: ONE_ID,
  options: { json: true, with: true, team: true, write: 'let them add to it too (default: read-only)' },
  usage: [
    {
      synopsis: 'sessions share ID --with ROLE|--team [--write] [--json]',
      text: ['let another role (or the whole team) read one of your sessions', 'on a PostgreSQL server; --write lets them add to it'],
    },
  ],
  group: SHARING_GROUP,
  // Exactly one of --with and --team.
  check: (_args, options, fail) => {
    if (options.with !== undefined && options.team) throw fail('use only one of --with ROLE and --team');
    if (options.with === undefined && !options.team) throw fail('sessions share needs --with ROLE or --team: whom to share with');
  },
  run: async (command, environment) => (await import('./share-run.js')).runShare(command, environment),
};
