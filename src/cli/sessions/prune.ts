/** `chatkeep sessions prune --older-than AGE`: old sessions go to the trash. */
import { TRASH_GROUP, TRASH_NOTE } from './groups.js';
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const prune: SessionsSubcommand = {
  name: 'prune',
  args: NO_ARGUMENTS,
  options: {
    all: true,
    json: true,
    'older-than': 'last updated longer ago than AGE (30d, 12h, 2w)',
    'dry-run': 'print what would go to the trash, move nothing',
  },
  usage: [{ synopsis: 'sessions prune --older-than AGE [--all] [--dry-run] [--json]', text: ["move this project's sessions last updated longer ago than AGE to the trash"] }],
  group: TRASH_GROUP,
  note: TRASH_NOTE,
  require: (_args, options, fail) => {
    if (options['older-than'] === undefined) throw fail('sessions prune needs --older-than AGE (such as 30d): nothing is pruned by default');
  },
  run: async (command, environment) => (await import('./prune-run.js')).runPrune(command, environment),
};
