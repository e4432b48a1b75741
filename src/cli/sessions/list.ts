/** `chatkeep sessions list`: the listing, for people and scripts. */
import { NO_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

/** Rows in the default view: a screenful, as `sessions search` shows. */
export const LIST_DEFAULT_LIMIT = 20;

export const list: SessionsSubcommand = {
  name: 'list',
  args: NO_ARGUMENTS,
  options: {
    all: true,
    json: true,
    branch: 'only sessions last used on this git branch',
    empty: 'also sessions that hold no message (left by earlier builds)',
    project: "that directory's sessions instead of this one's",
    limit: `show the N newest (default ${LIST_DEFAULT_LIMIT}, every one with --json; 0: all)`,
  },
  usage: [
    {
      synopsis: 'sessions list [--all] [--branch NAME] [--project PATH] [--limit N] [--json]',
      text: ["this project's sessions, newest first (--all: every project)"],
      overview: true,
    },
  ],
  parse: (_words, options, fail) => {
    // The default view reads only the newest rows of the index; a script asking for JSON gets every row, as before.
    const limitText = options.limit ?? (options.json ? '0' : String(LIST_DEFAULT_LIMIT));
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit)) throw fail(`--limit takes a whole number (0: all), not ${limitText}`);
    return { kind: 'sessions', action: 'list', ids: [], limit, options };
  },
  check: (_args, options, fail) => {
    if (options.all && options.project !== undefined) throw fail('use only one of --all and --project');
  },
  run: async (command, environment) => (await import('./list-run.js')).runList(command, environment),
};
