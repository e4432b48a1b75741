/**
 * `chatkeep db …` (docs/design.md §9): the command line of a team's PostgreSQL server, parsed and
 * helped from its option table and its subcommands (./db/).
 */
import { parseArgs } from 'node:util';
import { formatOptions, usage } from './option-spec.js';
import { subcommandOptions } from './subcommand-options.js';
import { usageLines } from './usage-lines.js';
import { DB_SUBCOMMANDS, dbSubcommand } from './db/index.js';
import { DB_OPTION_TABLE, type DbCommand, type DbOptionName, type DbOptionSpec } from './db/subcommand.js';

const dbOptions = subcommandOptions<(typeof DB_SUBCOMMANDS)[number], DbOptionName>(DB_OPTION_TABLE, DB_SUBCOMMANDS);
/** Every option of `chatkeep db …`, each with its help line. */
export const DB_OPTIONS = dbOptions.specs;

/** Parses `chatkeep db …` (the words after `db`); a malformed line is a `usage` error (exit 2). */
export function parseDbCommand(args: string[]): DbCommand {
  const help = ['db', '--help'];
  const options = Object.fromEntries(
    Object.entries(DB_OPTION_TABLE).map(([name, spec]: [string, DbOptionSpec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
    ]),
  );
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (err) {
    const quoted = /'([^']+)'/.exec(err instanceof Error ? err.message : '')?.[1] ?? '';
    throw usage((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `unknown option ${quoted.split(' ')[0]}` : `bad option ${quoted}`, help);
  }
  const { values, positionals } = parsed;
  const [action, ...rest] = positionals;
  const subcommand = dbSubcommand(action);
  const members = (values.member as string[] | undefined) ?? [];
  const common = { members, options: values as DbCommand['options'] };
  if (values.help || action === undefined || action === 'help') return { kind: 'db', action: 'help', ...(subcommand ? { topic: subcommand.name } : {}), ...common };
  if (!subcommand) throw usage(`unknown command \`db ${action}\``, help);
  if (rest.length > 0) throw usage(`unexpected argument ${rest[0]}`, help);
  for (const name of dbOptions.names) {
    const given = values[name];
    if (given !== undefined && !dbOptions.takes(subcommand, name)) throw usage(dbOptions.foreign('db', name), help);
    if (typeof given === 'string' && given.trim() === '') throw usage(`option --${name} needs a value, not an empty string`, help);
  }
  for (const member of members) if (member.trim() === '') throw usage('option --member needs a role name, not an empty string', help);
  return { kind: 'db', action: subcommand.name, ...common };
}

/** `chatkeep db --help`, or that of one subcommand (its options only). */
export function dbHelp(topic?: string, flow = false): string {
  const subcommand = dbSubcommand(topic);
  return [
    'Usage:',
    ...(subcommand ? [subcommand] : DB_SUBCOMMANDS).flatMap((s) => s.usage.flatMap((form) => usageLines(form, flow))),
    '',
    'Options:',
    ...formatOptions(dbOptions.optionsOf(subcommand)),
    '',
    'TLS as libpq reads it: ?sslmode=disable|allow|prefer|require|verify-ca|verify-full, sslrootcert, sslcert and',
    'sslkey in the URL, or PGSSLMODE, PGSSLROOTCERT, PGSSLCERT and PGSSLKEY.',
    '',
  ].join('\n');
}

/** `chatkeep --help`'s line for them: `chatkeep db setup|status …`, its summary from `column`. */
export function dbOverview(column: number): string {
  return `${`  chatkeep db ${DB_SUBCOMMANDS.map((s) => s.name).join('|')} …`.padEnd(column)}a team's PostgreSQL server (see chatkeep db --help)`;
}
