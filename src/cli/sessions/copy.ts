/** `chatkeep sessions copy --to URL|DIR [--all | ID…]`: sessions into another store. */
import { ANY_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const copy: SessionsSubcommand = {
  name: 'copy',
  args: ANY_ARGUMENTS,
  options: { all: true, json: true, to: 'the store to copy into: a postgres:// URL (no password: PGPASSWORD or ~/.pgpass) or a data directory' },
  usage: [
    {
      synopsis: 'sessions copy --to URL|DIR [--all | ID…] [--json]',
      text: ["copy sessions (this project's, every project's, or those named) into another", 'store: a PostgreSQL server or a data directory; a second run copies nothing'],
      overview: true,
    },
  ],
  require: (args, options, fail) => {
    if (options.to === undefined) throw fail('sessions copy needs --to URL|DIR, the store to copy into');
    if (options.all && args.length > 0) throw fail('give session IDs or --all, not both');
  },
  run: async (command, environment) => (await import('./copy-run.js')).runCopy(command, environment),
};
