/** `chatkeep sessions restore ID`: a session back from the trash. */
import { TRASH_GROUP } from './groups.js';
import { ONE_ID, type SessionsSubcommand } from './subcommand.js';

export const restore: SessionsSubcommand = {
  name: 'restore',
  args: ONE_ID,
  options: { json: true },
  usage: [{ synopsis: 'sessions restore ID [--json]', text: ['bring a session back from the trash, resumable as before'] }],
  group: TRASH_GROUP,
  run: async (command, environment) => (await import('./restore-run.js')).runRestore(command, environment),
};
