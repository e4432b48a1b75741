/** `chatkeep sessions rm ID…`: sessions go to the trash. */
import { TRASH_GROUP, TRASH_NOTE } from './groups.js';
import { SOME_IDS, type SessionsSubcommand } from './subcommand.js';

export const rm: SessionsSubcommand = {
  name: 'rm',
  args: SOME_IDS,
  options: { json: true },
  usage: [{ synopsis: 'sessions rm ID… [--json]', text: ['move sessions to the trash (refused while in use: exit 3)'] }],
  group: TRASH_GROUP,
  note: TRASH_NOTE,
  run: async (command, environment) => (await import('./rm-run.js')).runRm(command, environment),
};
