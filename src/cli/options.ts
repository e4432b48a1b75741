/**
 * The command line, described as data (STYLE: vitest's CLI options): one table drives both
 * `parseArgs` and the `--help` text, so they cannot drift apart.
 */
import { parseArgs } from 'node:util';
import { parseAge } from './age.js';
import { parseDbCommand, type DbCommand } from './db-options.js';
import { SHARE_OPTIONS, SHARE_USAGE, checkShare } from './share-options.js';
import { PEER_TOOLS } from '../import/types.js';
import { chatFlagAdvice, chatOnlyOption, placeLeadingFlags, type OptionTables } from './flag-placement.js';
import { formatOptions, usage, type OptionSpec } from './option-spec.js';

/** The `chatkeep sessions` subcommands. */
export const SESSIONS_ACTIONS = ['browse', 'list', 'show', 'search', 'export', 'import', 'copy', 'rm', 'trash', 'restore', 'prune', 'empty-trash', 'share', 'unshare'] as const;
export type SessionsAction = (typeof SESSIONS_ACTIONS)[number];

/** What each subcommand takes after its name: session IDs (none, one, one or more), the file import reads, or search's text. */
const SESSIONS_ARGS: Record<SessionsAction, 'none' | 'one' | 'some' | 'any' | 'file' | 'text'> = {
  browse: 'none', list: 'none', show: 'one', search: 'text', copy: 'any', export: 'one', import: 'file', rm: 'some', trash: 'none', restore: 'one', prune: 'none', 'empty-trash': 'none', share: 'one', unshare: 'one',
};

/** Options of the REPL itself (`chatkeep [options]`). */
export const REPL_OPTIONS = {
  'session-id': { type: 'string', value: 'ID', description: 'resume that session (a unique prefix of an ID is enough; any project)' },
  continue: { type: 'boolean', short: 'c', description: "resume this project's most recently updated session" },
  resume: { type: 'boolean', short: 'r', description: 'choose the session to resume in the session browser: type to search (interactive terminal only)' },
  fork: { type: 'string', value: 'ID', description: "continue in a new session holding a copy of ID's conversation (ID is left untouched)" },
  at: { type: 'string', value: 'N', description: 'with --fork: copy only the first N messages' },
  home: { type: 'string', value: 'DIR', description: 'data directory (default: $CHATKEEP_HOME, else ~/.chatkeep)' },
  store: { type: 'string', value: 'URL', description: 'keep sessions on a PostgreSQL server (postgres://user@host/db), or file (default: $CHATKEEP_STORE, else config "store", else the data directory)' },
  autosave: { type: 'string', value: 'SPEC', description: 'off, a duration (30s, 5m) or a cron expression (default "*/5 * * * *")' },
  provider: { type: 'string', value: 'NAME', description: 'echo (offline), anthropic or openai (default: echo unless an API key is set)' },
  model: { type: 'string', value: 'NAME', description: "the provider's model" },
  system: { type: 'string', value: 'FILE', description: 'a system prompt read from FILE (its path and hash are recorded)' },
  'auto-compact': { type: 'boolean', description: 'compact the conversation without asking when it nears the context window (config: autoCompact)' },
  raw: { type: 'boolean', description: 'show replies as plain text, not rendered Markdown (pipes and NO_COLOR always are)' },
  'no-redact': { type: 'boolean', description: 'store secrets as typed instead of replacing them' },
  'no-persist': { type: 'boolean', description: 'chat without writing anything (no session, no history, no ID)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
} as const satisfies Record<string, OptionSpec>;

/** Options of `chatkeep sessions …`. */
export const SESSIONS_OPTIONS = {
  all: { type: 'boolean', short: 'a', description: 'browse, list, search, copy, prune, import --from: every project, not just this one', actions: ['browse', 'list', 'show', 'search', 'copy', 'prune', 'import'] },
  json: { type: 'boolean', description: 'machine-readable JSON', actions: ['list', 'show', 'search', 'import', 'copy', 'rm', 'trash', 'restore', 'prune', 'empty-trash', 'share', 'unshare'] },
  branch: { type: 'string', value: 'NAME', description: 'list: only sessions last used on this git branch', actions: ['list'] },
  empty: { type: 'boolean', description: 'list: also sessions that hold no message (left by earlier builds)', actions: ['list'] },
  project: { type: 'string', value: 'PATH', description: "list: that directory's sessions instead of this one's", actions: ['list'] },
  limit: { type: 'string', value: 'N', description: 'search: show the N best sessions (default 20; 0: all)', actions: ['search'] },
  format: { type: 'string', value: 'FORMAT', description: 'export: json (the archive import reads, default), md, html, or claude (a Claude Code session file)', actions: ['export'] },
  output: { type: 'string', short: 'o', value: 'FILE', description: 'export: write to FILE instead of standard output', actions: ['export'] },
  'no-redact': { type: 'boolean', description: 'import: keep secrets in the file as they are', actions: ['import'] },
  from: { type: 'string', value: 'TOOL', description: "import: read another tool's sessions: claude (Claude Code), codex (Codex CLI) or gemini (Gemini CLI)", actions: ['import'] },
  since: { type: 'string', value: 'AGE', description: 'import --from: only session files changed in the last AGE (30d, 12h, 2w)', actions: ['import'] },
  to: { type: 'string', value: 'URL|DIR', description: 'copy: the store to copy into: a postgres:// URL (no password: PGPASSWORD or ~/.pgpass) or a data directory', actions: ['copy'] },
  'older-than': { type: 'string', value: 'AGE', description: 'prune: last updated longer ago than AGE (30d, 12h, 2w); empty-trash: trashed longer ago', actions: ['prune', 'empty-trash'] },
  'dry-run': { type: 'boolean', description: 'prune: print what would go to the trash, move nothing; import --from: what would be imported, write nothing', actions: ['prune', 'import'] },
  yes: { type: 'boolean', short: 'y', description: 'empty-trash: delete without asking (needed when not on a terminal)', actions: ['empty-trash'] },
  ...SHARE_OPTIONS,
  home: REPL_OPTIONS.home,
  store: REPL_OPTIONS.store,
  help: REPL_OPTIONS.help,
} as const satisfies Record<string, OptionSpec<SessionsAction>>;

/** Both tables, for placing flags given before `sessions` (flag-placement.ts). */
const TABLES: OptionTables = { chat: REPL_OPTIONS, sessions: SESSIONS_OPTIONS };

export type Parsed<T extends Record<string, OptionSpec>> = {
  [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean;
};

/** What the command line asked for. */
export type CliCommand =
  | { kind: 'repl'; options: Parsed<typeof REPL_OPTIONS> }
  | DbCommand
  /**
   * `help` with a `topic`: the help of that subcommand. `ids`: the session IDs given (`id`: the
   * first); `file`: what `import` reads (`-`: standard input).
   */
  | {
      kind: 'sessions';
      action: SessionsAction | 'help';
      topic?: SessionsAction;
      id?: string;
      ids: string[];
      file?: string;
      /** `import --from`: the files and folders to read (none: the tool's own store). */
      paths?: string[];
      /** `search`: the text, as typed with single spaces between its words, and how many results to show (0: all). */
      query?: string;
      limit?: number;
      options: Parsed<typeof SESSIONS_OPTIONS>;
    };

/**
 * Parses argv (without `node` and the script). A malformed command line throws a `UserError`
 * (exit 2) whose message is the one line the user sees.
 */
export function parseCommandLine(argv: string[]): CliCommand {
  // `chatkeep --home DIR --store URL sessions …`, the form in which printed commands carry them, is
  // `sessions … --home DIR --store URL`; a chat-only flag there is refused saying where it goes.
  const placed = placeLeadingFlags(argv, TABLES);
  if (placed?.kind === 'misplaced') throw usage(chatFlagAdvice(placed.flag), ['sessions', '--help']);
  if (placed) argv = placed.argv;
  if (argv[0] === 'db') return parseDbCommand(argv.slice(1));
  if (argv[0] === 'sessions') {
    const help = ['sessions', '--help'];
    const { values, positionals } = parse(argv.slice(1), SESSIONS_OPTIONS, true, help);
    const [action, ...args] = positionals;
    const known = (SESSIONS_ACTIONS as readonly string[]).includes(action ?? '');
    if (values.help || action === 'help' || action === undefined) {
      return { kind: 'sessions', action: 'help', ...(known ? { topic: action as SessionsAction } : {}), ids: [], options: values };
    }
    if (!known) throw usage(`unknown command \`sessions ${action}\``, help);
    const act = action as SessionsAction;
    const takes = SESSIONS_ARGS[act];
    if (takes === 'none' && args.length > 0) throw usage(`unexpected argument ${args[0]}`, help);
    if (takes === 'file' && args.length === 0 && values.from === undefined) throw usage('sessions import needs a file to read (- for standard input), or --from TOOL', help);
    if ((takes === 'one' || takes === 'some') && args.length === 0) throw usage(`sessions ${act} needs a session ID${takes === 'some' ? ' (or several)' : ''}`, help);
    if (takes !== 'some' && takes !== 'any' && takes !== 'text' && !(act === 'import' && values.from !== undefined) && args.length > 1) throw usage(`unexpected argument ${args[1]}`, help);
    if (act === 'copy' && values.to === undefined) throw usage('sessions copy needs --to URL|DIR, the store to copy into', help);
    if (act === 'copy' && values.all && args.length > 0) throw usage('give session IDs or --all, not both', help);
    if (act === 'prune' && values['older-than'] === undefined) throw usage('sessions prune needs --older-than AGE (such as 30d): nothing is pruned by default', help);
    if (values['older-than'] !== undefined) parseAge(values['older-than']);
    for (const [name, spec] of Object.entries(SESSIONS_OPTIONS) as [keyof typeof SESSIONS_OPTIONS, OptionSpec][]) {
      if (spec.actions && !spec.actions.includes(act) && values[name] !== undefined) {
        throw usage(`--${name} is an option of sessions ${spec.actions.join(', ').replace(/, ([^,]+)$/, ' and $1')}`, help);
      }
    }
    if (values.all && values.project !== undefined) throw usage('use only one of --all and --project', help);
    if (act === 'share' || act === 'unshare') checkShare(act, values, (what) => usage(what, help));
    if (act === 'search') return parseSearch(args, values, help);
    if (act === 'import') return parseImport(args, values, help);
    return { kind: 'sessions', action: act, ...(args[0] !== undefined ? { id: args[0] } : {}), ids: args, options: values };
  }
  const { values } = parse(argv, REPL_OPTIONS, false, ['--help']);
  const picks = [values['session-id'] !== undefined, values.continue, values.resume].filter(Boolean).length;
  if (picks > 1) throw usage('use only one of --session-id, --continue and --resume', ['--help']);
  if (values.fork !== undefined && picks > 0) throw usage('--fork starts a new session: use it without --session-id, --continue and --resume', ['--help']);
  if (values.at !== undefined && values.fork === undefined) throw usage('--at goes with --fork ID (fork after message N)', ['--help']);
  if (values.fork !== undefined && values['no-persist']) throw usage('--no-persist writes nothing, so it cannot fork a session: drop --no-persist or --fork', ['--help']);
  if (picks > 0 && values['no-persist']) throw usage('--no-persist writes nothing, so it cannot resume a session: drop --no-persist, or --session-id/--continue/--resume', ['--help']);
  return { kind: 'repl', options: values };
}

/** `sessions import FILE|-`, or `sessions import --from TOOL [PATH…]` (its own options only with --from). */
function parseImport(args: string[], values: Parsed<typeof SESSIONS_OPTIONS>, help: readonly string[]): CliCommand {
  const command = { kind: 'sessions' as const, action: 'import' as const, ids: [], options: values };
  if (values.from === undefined) {
    for (const name of ['all', 'since', 'dry-run'] as const) if (values[name] !== undefined) throw usage(`--${name} goes with --from TOOL (importing another tool's sessions)`, help);
    return { ...command, file: args[0] };
  }
  if (!(PEER_TOOLS as readonly string[]).includes(values.from)) throw usage(`--from takes claude, codex or gemini, not ${values.from}`, help);
  if (values.all && args.length > 0) throw usage('give PATHs or --all, not both (--all reads every project of the tool\'s own store)', help);
  if (values.since !== undefined) parseAge(values.since, '--since');
  return { ...command, paths: args };
}

/** `sessions search TEXT…`: the words are one query. */
function parseSearch(words: string[], values: Parsed<typeof SESSIONS_OPTIONS>, help: readonly string[]): CliCommand {
  const query = words.join(' ').trim();
  if (query === '') throw usage('sessions search needs some text to look for', help);
  const limitText = values.limit ?? '20';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit)) throw usage(`--limit takes a whole number (0: all), not ${limitText}`, help);
  return { kind: 'sessions', action: 'search', ids: [], query, limit, options: values };
}

function parse<T extends Record<string, OptionSpec>>(
  args: string[],
  specs: T,
  allowPositionals: boolean,
  help: readonly string[],
): { values: Parsed<T>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) options[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  let parsed: { values: Parsed<T>; positionals: string[] };
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals });
    parsed = { values: values as Parsed<T>, positionals };
  } catch (err) {
    // A chat flag after `sessions …`: say where it belongs rather than that it is unknown.
    const chatFlag = specs === (SESSIONS_OPTIONS as Record<string, OptionSpec>) ? args.map((arg) => chatOnlyOption(arg, TABLES)).find((found) => found !== undefined) : undefined;
    if (chatFlag && (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usage(chatFlagAdvice(`--${chatFlag[0]}`), help);
    throw usage(describeParseError(err, args), help);
  }
  // An empty value would quietly mean "here" (the current directory) or nothing at all.
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' && value.trim() === '') throw usage(`option --${name} needs a value, not an empty string`, help);
  }
  return parsed;
}

/** Turns node:util's parse errors (long, with advice about `--`) into a short phrase. */
function describeParseError(err: unknown, args: readonly string[]): string {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  // `-c, --continue` names both forms: the long one is the one to show.
  const option = quoted.split(' ').filter((word) => word.startsWith('-')).pop()?.replace(/,$/, '') ?? quoted;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${quoted.split(' ')[0]}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('argument missing')) return `option ${option} needs a value`;
    if (message.includes('ambiguous')) {
      // The word after the option begins with `-`: parseArgs will not take it as the value.
      const next = args[args.indexOf(option) + 1] ?? '';
      return `option ${option} needs a value, and ${next} looks like an option (to pass it as the value, write ${option}=${next})`;
    }
    return `option ${option} does not take a value`;
  }
  return message.split('.')[0] ?? message;
}

/** The `--help` text for the REPL, generated from {@link REPL_OPTIONS}. */
export function replHelp(version: string): string {
  return [
    `chatkeep ${version}: a terminal chat whose sessions are never lost`,
    '',
    'Usage:',
    '  chatkeep [options]                   start a chat (a new session unless told otherwise)',
    '  chatkeep --fork ID [--at N]          continue in a fork of session ID (a new session)',
    '  chatkeep sessions browse [--all]     browse, search and resume sessions full-screen (as -r)',
    '  chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--json]',
    '  chatkeep sessions show ID [--json]',
    '  chatkeep sessions search TEXT [--all] [--limit N] [--json]',
    '  chatkeep sessions export ID [--format json|md|html] [-o FILE]',
    '  chatkeep sessions import FILE|- [--no-redact] [--json]',
    '  chatkeep sessions import --from claude|codex|gemini [PATH…] [--all] [--since AGE] [--dry-run] [--json]',
    '  chatkeep sessions copy --to URL|DIR [--all | ID…] [--json]',
    '  chatkeep sessions rm|trash|restore|prune|empty-trash …   the trash (see chatkeep sessions --help)',
    '  chatkeep sessions share|unshare ID …    share a session on a team\'s server (see chatkeep sessions --help)',
    '  chatkeep db setup|status …               a team\'s PostgreSQL server (see chatkeep db --help)',
    '',
    'Options:',
    ...formatOptions(REPL_OPTIONS),
    '',
    'Environment: CHATKEEP_HOME (data directory), CHATKEEP_STORE (a postgres:// URL), ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL,',
    '  NO_COLOR, FORCE_COLOR.',
    'In the chat, type /help for commands. Exit codes: 0 ok, 1 unexpected failure, 2 bad usage or input,',
    '  3 session in use by another process.',
    '',
  ].join('\n');
}

/** Each `sessions` subcommand's usage and what it does (the help of `sessions` and of each subcommand). */
const SESSIONS_USAGE: Record<SessionsAction, string[]> = {
  browse: [
    '  chatkeep sessions browse [--all]          the session browser (a terminal only): type to search, Enter resumes,',
    '                                            Tab switches this project / every project, Esc leaves',
  ],
  list: [
    '  chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--json]',
    "                                            this project's sessions, newest first (--all: every project)",
  ],
  show: ["  chatkeep sessions show ID [--json]        one session's transcript (ID or a unique prefix), its lineage and forks"],
  search: [
    '  chatkeep sessions search TEXT [--all] [--limit N] [--json]',
    '                                            sessions whose messages, title or ID hold TEXT, best first',
    '                                            (literal text; case and Unicode forms ignored)',
  ],
  export: [
    '  chatkeep sessions export ID [--format json|md|html] [-o FILE]',
    '                                            one session as a JSON archive (for import), Markdown or a web page',
    '                                            (standard output unless -o; FILE ending in .md or .html picks that format)',
    '  chatkeep sessions export ID --format claude [-o FILE]',
    '                                            a Claude Code session file: `claude --resume` continues it (docs/import.md)',
  ],
  import: [
    '  chatkeep sessions import FILE|- [--no-redact] [--json]',
    '                                            adds the session in a JSON export (- reads standard input, at most',
    "                                            512 MiB: CHATKEEP_IMPORT_LIMIT_MB changes it) to this directory's project;",
    '                                            a taken ID gets a new one',
    '  chatkeep sessions import --from claude|codex|gemini [PATH…] [--all] [--since AGE] [--dry-run] [--json]',
    "                                            adds Claude Code's, Codex CLI's or Gemini CLI's sessions: the files or folders",
    "                                            given, else this project's in the tool's own store (--all: every project);",
    '                                            a second run imports only what grew',
  ],
  copy: [
    '  chatkeep sessions copy --to URL|DIR [--all | ID…] [--json]',
    "                                            copy sessions (this project's, every project's, or those named) into another",
    '                                            store: a PostgreSQL server or a data directory; a second run copies nothing',
  ],
  rm: ['  chatkeep sessions rm ID… [--json]         move sessions to the trash (refused while in use: exit 3)'],
  trash: ['  chatkeep sessions trash [--json]          what is in the trash, most recently trashed first'],
  restore: ['  chatkeep sessions restore ID [--json]     bring a session back from the trash, resumable as before'],
  prune: [
    '  chatkeep sessions prune --older-than AGE [--all] [--dry-run] [--json]',
    "                                            move this project's sessions last updated longer ago than AGE to the trash",
  ],
  'empty-trash': [
    '  chatkeep sessions empty-trash [--older-than AGE] [--yes] [--json]',
    '                                            delete what is in the trash for good (asks first; --yes when not on a terminal)',
  ],
  ...SHARE_USAGE,
};

/** The `chatkeep sessions --help` text, or with `topic` that of one subcommand (its options only). */
export function sessionsHelp(topic?: SessionsAction): string {
  const actions = topic ? [topic] : SESSIONS_ACTIONS;
  const options = Object.fromEntries(
    Object.entries(SESSIONS_OPTIONS).filter(([, spec]: [string, OptionSpec]) => !topic || !spec.actions || spec.actions.includes(topic)),
  );
  const trashNote = actions.some((a) => a === 'rm' || a === 'prune' || a === 'empty-trash')
    ? ['', 'Nothing is deleted except by empty-trash, and a deleted ID is never used again.']
    : [];
  return ['Usage:', ...actions.flatMap((action) => SESSIONS_USAGE[action]), ...trashNote, '', 'Options:', ...formatOptions(options), ''].join('\n');
}
