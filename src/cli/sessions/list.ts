/** `chatkeep sessions list`: the listing, for people and scripts. */
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const list: SessionsSubcommand = {
  name: 'list',
  args: NO_ARGUMENTS,
  options: {
    all: true,
    json: true,
    branch: 'only sessions last used on this git branch',
    empty: 'also sessions that hold no message (left by earlier builds)',
    project: "that directory's sessions instead of this one's",
  },
  usage: [{ synopsis: 'sessions list [--all] [--branch NAME] [--project PATH] [--json]', text: ["this project's sessions, newest first (--all: every project)"], overview: true }],
  check: (_args, options, fail) => {
    if (options.all && options.project !== undefined) throw fail('use only one of --all and --project');
  },
  run: async (command, environment) => (await import('./list-run.js')).runList(command, environment),
};
