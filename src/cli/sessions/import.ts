/** `chatkeep sessions import FILE|-`, or `import --from TOOL [PATH…]`: another tool's sessions. */
import { PEER_TOOLS } from '../../import/types.js';
import { parseAge } from '../age.js';
import { SESSIONS_OPTION_TABLE, type SessionsOptionSpec } from '../sessions-option-table.js';
import { ANY_ARGUMENTS, type SessionsSubcommand } from './subcommand.js';

export const importSessions: SessionsSubcommand = {
  name: 'import',
  // With --from: the files and folders to read, any number; without: the one file.
  args: (options) => (options.from !== undefined ? ANY_ARGUMENTS : { min: 1, max: 1, missing: 'a file to read (- for standard input), or --from TOOL' }),
  options: {
    all: { with: 'from' },
    json: true,
    'no-redact': 'keep secrets in the file as they are',
    from: "read another tool's sessions: claude (Claude Code), codex (Codex CLI) or gemini (Gemini CLI)",
    since: { with: 'from', means: 'only session files changed in the last AGE (30d, 12h, 2w)' },
    'dry-run': { with: 'from', means: 'what would be imported, write nothing' },
  },
  usage: [
    {
      synopsis: 'sessions import FILE|- [--no-redact] [--json]',
      text: [
        'adds the session in a JSON export (- reads standard input, at most',
        "512 MiB: CHATKEEP_IMPORT_LIMIT_MB changes it) to this directory's project;",
        'a taken ID gets a new one',
      ],
      overview: true,
    },
    {
      synopsis: 'sessions import --from claude|codex|gemini [PATH…] [--all] [--since AGE] [--dry-run] [--json]',
      text: [
        "adds Claude Code's, Codex CLI's or Gemini CLI's sessions: the files or folders",
        "given, else this project's in the tool's own store (--all: every project);",
        'a second run imports only what grew',
      ],
      overview: true,
    },
  ],
  parse: (args, options, fail) => {
    const command = { kind: 'sessions' as const, action: 'import', ids: [], options };
    if (options.from === undefined) {
      for (const [name, use] of Object.entries(importSessions.options)) {
        if (typeof use === 'object' && options[name as keyof typeof options] !== undefined) throw fail(`--${name} goes with --${use.with} ${(SESSIONS_OPTION_TABLE[use.with] as SessionsOptionSpec).value} (importing another tool's sessions)`);
      }
      return { ...command, file: args[0] };
    }
    if (!(PEER_TOOLS as readonly string[]).includes(options.from)) throw fail(`--from takes claude, codex or gemini, not ${options.from}`);
    if (options.all && args.length > 0) throw fail("give PATHs or --all, not both (--all reads every project of the tool's own store)");
    if (options.since !== undefined) parseAge(options.since, '--since');
    return { ...command, paths: [...args] };
  },
  run: async (command, environment) => (await import('./import-run.js')).runImport(command, environment),
};
