/**
 * The command line, described as data (STYLE: vitest's CLI options): one table drives both
 * `parseArgs` and the `--help` text, so they cannot drift apart.
 */
import { parseArgs } from 'node:util';
import { commandText, UserError } from '../session/errors.js';

/** One option: what `parseArgs` needs plus what `--help` shows. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Placeholder shown in help, e.g. `ID`. */
  value?: string;
  description: string;
}

/** Options of the REPL itself (`chatkeep [options]`). */
export const REPL_OPTIONS = {
  'session-id': { type: 'string', value: 'ID', description: 'resume that session (a unique prefix of an ID is enough; any project)' },
  continue: { type: 'boolean', short: 'c', description: "resume this project's most recently updated session" },
  resume: { type: 'boolean', short: 'r', description: 'pick a session to resume from a list (interactive terminal only)' },
  home: { type: 'string', value: 'DIR', description: 'data directory (default: $CHATKEEP_HOME, else ~/.chatkeep)' },
  autosave: { type: 'string', value: 'SPEC', description: 'off, a duration (30s, 5m) or a cron expression (default "*/5 * * * *")' },
  provider: { type: 'string', value: 'NAME', description: 'echo (offline), anthropic or openai (default: echo unless an API key is set)' },
  model: { type: 'string', value: 'NAME', description: "the provider's model" },
  system: { type: 'string', value: 'FILE', description: 'a system prompt read from FILE (its path and hash are recorded)' },
  raw: { type: 'boolean', description: 'show replies as plain text, not rendered Markdown (pipes and NO_COLOR always are)' },
  'no-redact': { type: 'boolean', description: 'store secrets as typed instead of replacing them' },
  'no-persist': { type: 'boolean', description: 'chat without writing anything (no session, no history, no ID)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
} as const satisfies Record<string, OptionSpec>;

/** Options of `chatkeep sessions list|show`. */
export const SESSIONS_OPTIONS = {
  all: { type: 'boolean', short: 'a', description: 'list, search: every project, not just this one' },
  json: { type: 'boolean', description: 'machine-readable JSON' },
  branch: { type: 'string', value: 'NAME', description: 'list: only sessions last used on this git branch' },
  project: { type: 'string', value: 'PATH', description: "list: that directory's sessions instead of this one's" },
  limit: { type: 'string', value: 'N', description: 'search: show the N best sessions (default 20; 0: all)' },
  home: REPL_OPTIONS.home,
  help: REPL_OPTIONS.help,
} as const satisfies Record<string, OptionSpec>;

type Parsed<T extends Record<string, OptionSpec>> = {
  [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean;
};

/** What the command line asked for. */
export type CliCommand =
  | { kind: 'repl'; options: Parsed<typeof REPL_OPTIONS> }
  | { kind: 'sessions'; action: 'list' | 'show' | 'help'; id?: string; options: Parsed<typeof SESSIONS_OPTIONS> }
  | { kind: 'sessions'; action: 'search'; query: string; limit: number; options: Parsed<typeof SESSIONS_OPTIONS> };

/**
 * Parses argv (without `node` and the script). A malformed command line throws a `UserError`
 * (exit 2) whose message is the one line the user sees.
 */
export function parseCommandLine(argv: string[]): CliCommand {
  if (argv[0] === 'sessions') {
    const help = ['sessions', '--help'];
    const { values, positionals } = parse(argv.slice(1), SESSIONS_OPTIONS, true, help);
    const [action, id, ...rest] = positionals;
    if (values.help || action === 'help' || action === undefined) return { kind: 'sessions', action: 'help', options: values };
    if (action === 'search') return parseSearch(positionals.slice(1), values, help);
    if (values.limit !== undefined) throw usage('--limit is an option of sessions search', help);
    if (action !== 'list' && action !== 'show') throw usage(`unknown command \`sessions ${action}\``, help);
    if (action === 'list' && id !== undefined) throw usage(`unexpected argument ${id}`, help);
    if (action === 'show' && id === undefined) throw usage('sessions show needs a session ID', help);
    if (rest.length > 0) throw usage(`unexpected argument ${rest[0]}`, help);
    for (const listOnly of ['branch', 'project'] as const) {
      if (action === 'show' && values[listOnly] !== undefined) throw usage(`--${listOnly} is an option of sessions list`, help);
    }
    if (values.all && values.project !== undefined) throw usage('use only one of --all and --project', help);
    return { kind: 'sessions', action, id, options: values };
  }
  const { values } = parse(argv, REPL_OPTIONS, false, ['--help']);
  const picks = [values['session-id'] !== undefined, values.continue, values.resume].filter(Boolean).length;
  if (picks > 1) throw usage('use only one of --session-id, --continue and --resume', ['--help']);
  if (picks > 0 && values['no-persist']) throw usage('--no-persist writes nothing, so it cannot resume a session: drop --no-persist, or --session-id/--continue/--resume', ['--help']);
  return { kind: 'repl', options: values };
}

/** `sessions search TEXT…`: the words are one query, as typed with single spaces between them. */
function parseSearch(words: string[], values: Parsed<typeof SESSIONS_OPTIONS>, help: readonly string[]): CliCommand {
  const query = words.join(' ').trim();
  if (query === '') throw usage('sessions search needs some text to look for', help);
  for (const listOnly of ['branch', 'project'] as const) {
    if (values[listOnly] !== undefined) throw usage(`--${listOnly} is an option of sessions list`, help);
  }
  const limitText = values.limit ?? '20';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || !Number.isSafeInteger(limit)) throw usage(`--limit takes a whole number (0: all), not ${limitText}`, help);
  return { kind: 'sessions', action: 'search', query, limit, options: values };
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

function usage(what: string, help: readonly string[]): UserError {
  // No full stop after the command: it is copied as printed.
  return new UserError(`${what}. See ${commandText(help)}`, 'E_USAGE', 2, help);
}

/** The `--help` text for the REPL, generated from {@link REPL_OPTIONS}. */
export function replHelp(version: string): string {
  return [
    `chatkeep ${version}: a terminal chat whose sessions are never lost`,
    '',
    'Usage:',
    '  chatkeep [options]                   start a chat (a new session unless told otherwise)',
    '  chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--json]',
    '  chatkeep sessions show ID [--json]',
    '  chatkeep sessions search TEXT [--all] [--limit N] [--json]',
    '',
    'Options:',
    ...formatOptions(REPL_OPTIONS),
    '',
    'Environment: CHATKEEP_HOME (data directory), ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL,',
    '  NO_COLOR, FORCE_COLOR.',
    'In the chat, type /help for commands. Exit codes: 0 ok, 1 unexpected failure, 2 bad usage or input,',
    '  3 session in use by another process.',
    '',
  ].join('\n');
}

/** The `chatkeep sessions --help` text. */
export function sessionsHelp(): string {
  return [
    'Usage:',
    "  chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--json]",
    "                                            this project's sessions, newest first (--all: every project)",
    "  chatkeep sessions show ID [--json]        one session's transcript (ID or a unique prefix)",
    '  chatkeep sessions search TEXT [--all] [--limit N] [--json]',
    '                                            sessions whose messages, title or ID hold TEXT, best first',
    '                                            (literal text; case and Unicode forms ignored)',
    '',
    'Options:',
    ...formatOptions(SESSIONS_OPTIONS),
    '',
  ].join('\n');
}

function formatOptions(specs: Record<string, OptionSpec>): string[] {
  const left = Object.entries(specs).map(([name, spec]) => {
    const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return spec.short ? `-${spec.short}, ${flag}` : `    ${flag}`;
  });
  const width = Math.max(...left.map((l) => l.length)) + 2;
  return Object.values(specs).map((spec, i) => `  ${left[i]!.padEnd(width)}${spec.description}`);
}
