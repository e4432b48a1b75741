/**
 * Parses `chatkeep sessions …` from the list: what each subcommand takes after its name, which
 * options are its own, what it cannot go without. A malformed line throws the one `UserError`
 * (exit 2) the user sees.
 */
import { parseOptions } from '../parse-options.js';
import { usage } from '../option-spec.js';
import { sessionsSubcommand } from './index.js';
import { SESSIONS_OPTION_TABLE, type SessionsOptionName, type SessionsOptionSpec, type SessionsOptions } from '../sessions-option-table.js';
import { foreign, SESSIONS_OPTIONS, takes } from './options.js';
import type { SessionsCommand } from '../sessions-common.js';

const HELP = ['sessions', '--help'];
const fail = (what: string): Error => usage(what, HELP);

/** Parses the words after `sessions`. */
export function parseSessions(argv: string[]): SessionsCommand {
  const { values, positionals } = parseOptions(argv, SESSIONS_OPTIONS, { positionals: true, sessions: true, help: HELP });
  const options = values as SessionsOptions;
  const [name, ...args] = positionals;
  const subcommand = sessionsSubcommand(name);
  if (options.help || name === 'help' || name === undefined) {
    return { kind: 'sessions', action: 'help', ...(subcommand ? { topic: subcommand.name } : {}), ids: [], options };
  }
  if (!subcommand) throw fail(`unknown command \`sessions ${name}\``);
  const takesArgs = typeof subcommand.args === 'function' ? subcommand.args(options) : subcommand.args;
  if (args.length < takesArgs.min) throw fail(`sessions ${name} needs ${takesArgs.missing}`);
  if (args.length > takesArgs.max) throw fail(`unexpected argument ${args[takesArgs.max]}`);
  subcommand.require?.(args, options, fail);
  const names = Object.keys(SESSIONS_OPTION_TABLE) as SessionsOptionName[];
  for (const option of names) {
    const check = (SESSIONS_OPTION_TABLE[option] as SessionsOptionSpec).check;
    const value = options[option];
    if (check && typeof value === 'string') check(value);
  }
  for (const option of names) {
    if (options[option] !== undefined && !takes(subcommand, option)) throw fail(foreign('sessions', option));
  }
  subcommand.check?.(args, options, fail);
  if (subcommand.parse) return subcommand.parse(args, options, fail);
  return { kind: 'sessions', action: subcommand.name, ...(args[0] !== undefined ? { id: args[0] } : {}), ids: args, options };
}
