/** `chatkeep sessions empty-trash`: the only deletion; asks first, or needs --yes. */
import { TRASH_GROUP, TRASH_NOTE } from './groups.js';
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const emptyTrash: SessionsSubcommand = {
  name: 'empty-trash',
  args: NO_ARGUMENTS,
  options: {
    json: true,
    'older-than': 'trashed longer ago',
    yes: 'delete without asking (needed when not on a terminal)',
  },
  usage: [
    {
      synopsis: 'sessions empty-trash [--older-than AGE] [--yes] [--json]',
      text: ['delete what is in the trash for good (asks first; --yes when not on a terminal)'],
    },
  ],
  group: TRASH_GROUP,
  note: TRASH_NOTE,
  run: async (command, environment) => (await import('./empty-trash-run.js')).runEmptyTrash(command, environment),
};
