/**
 * The command line, described as data (docs/design.md §16): the chat's option table
 * (chat-options.ts), the `sessions` subcommands (sessions/index.ts) and `db` drive both parsing and
 * the `--help` texts, so they cannot drift apart.
 */
import { REPL_OPTIONS } from './chat-options.js';
import { dbOverview, parseDbCommand } from './db-options.js';
import type { DbCommand } from './db/subcommand.js';
import { chatFlagAdvice, placeLeadingFlags } from './flag-placement.js';
import { formatOptions, usage, type Parsed } from './option-spec.js';
import { parseOptions } from './parse-options.js';
import { sessionsOverview } from './sessions/help.js';
import { parseSessions } from './sessions/parse.js';
import type { SessionsCommand } from './sessions-common.js';

/** What the command line asked for. */
export type CliCommand =
  | { kind: 'repl'; options: Parsed<typeof REPL_OPTIONS> }
  | DbCommand
  | SessionsCommand;

/**
 * Parses argv (without `node` and the script). A malformed command line throws a `UserError`
 * (exit 2) whose message is the one line the user sees.
 */
export function parseCommandLine(argv: string[]): CliCommand {
  // `chatkeep --home DIR --store URL sessions …`, the form in which printed commands carry them, is
  // `sessions … --home DIR --store URL`; a chat-only flag there is refused saying where it goes.
  const placed = placeLeadingFlags(argv);
  if (placed?.kind === 'misplaced') throw usage(chatFlagAdvice(placed.flag), ['sessions', '--help']);
  if (placed) argv = placed.argv;
  if (argv[0] === 'db') return parseDbCommand(argv.slice(1));
  if (argv[0] === 'sessions') return parseSessions(argv.slice(1));
  const parsed = parseOptions(argv, REPL_OPTIONS, { positionals: true, help: ['--help'] });
  const flags = parsed.values as Parsed<typeof REPL_OPTIONS>;
  const prompt = promptArgument(parsed.positionals, flags.prompt);
  const values: Parsed<typeof REPL_OPTIONS> = prompt === undefined ? flags : { ...flags, prompt };
  if (values.prompt !== undefined && values.resume) throw usage('--prompt answers without the session browser: pick the session with --session-id ID or --continue', ['--help']);
  const picks = [values['session-id'] !== undefined, values.continue, values.resume].filter(Boolean).length;
  if (picks > 1) throw usage('use only one of --session-id, --continue and --resume', ['--help']);
  if (values.fork !== undefined && picks > 0) throw usage('--fork starts a new session: use it without --session-id, --continue and --resume', ['--help']);
  if (values.at !== undefined && values.fork === undefined) throw usage('--at goes with --fork ID (fork after message N)', ['--help']);
  if (values.fork !== undefined && values['no-persist']) throw usage('--no-persist writes nothing, so it cannot fork a session: drop --no-persist or --fork', ['--help']);
  if (picks > 0 && values['no-persist']) throw usage('--no-persist writes nothing, so it cannot resume a session: drop --no-persist, or --session-id/--continue/--resume', ['--help']);
  return { kind: 'repl', options: values };
}

/**
 * A prompt given as the only argument (`chatkeep "what is 2+2"`), as `-p` would give it. One
 * word alone is refused rather than sent: it is far more often a mistyped subcommand
 * (`chatkeep sesions`) than a question worth an assistant's reply.
 */
function promptArgument(positionals: readonly string[], flag: string | undefined): string | undefined {
  const [first, second] = positionals;
  if (first === undefined) return undefined;
  if (second !== undefined) throw usage(`unexpected argument ${second}: put the prompt in quotes, as one argument`, ['--help']);
  if (flag !== undefined) throw usage(`unexpected argument ${first}: the prompt is already given with --prompt`, ['--help']);
  if (first.trim() === '') throw usage('the prompt is empty: say what to ask', ['--help']);
  if (!/\s/.test(first.trim())) throw usage(`unexpected argument ${first}: to ask a one-word prompt, give it with -p`, ['--help']);
  return first;
}

/** Where the summaries of `chatkeep --help`'s usage lines begin. */
const SUMMARY_COLUMN = 39;

/**
 * The `--help` text for the REPL, generated from {@link REPL_OPTIONS} and the `sessions` subcommands.
 * `flow`: for a terminal, each paragraph as one line for the wrapper to break to its width.
 */
export function replHelp(version: string, flow = false): string {
  const paragraph = (lines: string[]): string[] => (flow ? [lines.map((line) => line.trim()).join(' ')] : lines);
  return [
    `chatkeep ${version}: a terminal chat whose sessions are never lost`,
    '',
    'Usage:',
    '  chatkeep [options]                   start a chat (a new session unless told otherwise)',
    '  chatkeep --fork ID [--at N]          continue in a fork of session ID (a new session)',
    '  chatkeep -p TEXT | chatkeep "TEXT"   answer once and exit (with -c or --session-id ID: in that session)',
    ...sessionsOverview(SUMMARY_COLUMN),
    dbOverview(43),
    '',
    'Options:',
    ...formatOptions(REPL_OPTIONS),
    '',
    ...paragraph([
      'Environment: CHATKEEP_HOME (data directory), CHATKEEP_STORE (a postgres:// URL), ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL,',
      '  NO_COLOR, FORCE_COLOR.',
    ]),
    ...paragraph([
      'In the chat, type /help for commands. Exit codes: 0 ok, 1 unexpected failure, 2 bad usage or input,',
      '  3 session in use by another process.',
    ]),
    '',
  ].join('\n');
}

