/** `chatkeep sessions trash`: what is in the trash. */
import { TRASH_GROUP } from './groups.js';
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const trash: SessionsSubcommand = {
  name: 'trash',
  args: NO_ARGUMENTS,
  options: { json: true },
  usage: [{ synopsis: 'sessions trash [--json]', text: ['what is in the trash, most recently trashed first'] }],
  group: TRASH_GROUP,
  run: async (command, environment) => (await import('./trash-run.js')).runTrash(command, environment),
};
