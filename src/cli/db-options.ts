/**
 * `chatkeep db setup|status` (issue 22 item 2): the command line of a team's PostgreSQL server,
 * as data (one table drives parsing and `--help`, as in options.ts).
 */
import { parseArgs } from 'node:util';
import { formatOptions, usage, type OptionSpec } from './option-spec.js';

export const DB_ACTIONS = ['setup', 'status'] as const;
export type DbAction = (typeof DB_ACTIONS)[number];

interface DbOptionSpec extends OptionSpec {
  multiple?: boolean;
  dbActions?: readonly DbAction[];
}

export const DB_OPTIONS = {
  member: {
    type: 'string',
    value: 'ROLE',
    multiple: true,
    description: "setup: make the login role ROLE a member of the team (repeat for several; run again to add one)",
    dbActions: ['setup'],
  },
  print: { type: 'boolean', description: 'setup: print the SQL it would run, change nothing', dbActions: ['setup'] },
  json: { type: 'boolean', description: 'machine-readable JSON', dbActions: ['setup', 'status'] },
  store: { type: 'string', value: 'URL', description: 'the PostgreSQL server (default: $CHATKEEP_STORE, else config "store")' },
  home: { type: 'string', value: 'DIR', description: 'data directory, where the config is read (default: $CHATKEEP_HOME, else ~/.chatkeep)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} as const satisfies Record<string, DbOptionSpec>;

const DB_USAGE: Record<DbAction, string[]> = {
  setup: [
    '  chatkeep db setup [--member ROLE…] [--print] [--json]',
    '                                            run once by an admin (a role that may create schemas and roles):',
    '                                            the schema, owned by chatkeep_owner, row-level security on every',
    '                                            table, the team role chatkeep_team, and each ROLE made a member',
  ],
  status: [
    '  chatkeep db status [--json]               schema version, the role you are, the row-level security in force',
    '                                            and whether the connection goes through a pooler',
  ],
};

export interface DbCommand {
  kind: 'db';
  action: DbAction | 'help';
  topic?: DbAction;
  members: string[];
  options: { print?: boolean; json?: boolean; store?: string; home?: string; help?: boolean };
}

/** Parses `chatkeep db …` (the words after `db`); a malformed line is a `usage` error (exit 2). */
export function parseDbCommand(args: string[]): DbCommand {
  const help = ['db', '--help'];
  const options = Object.fromEntries(
    Object.entries(DB_OPTIONS).map(([name, spec]: [string, DbOptionSpec]) => [
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
  const known = (DB_ACTIONS as readonly string[]).includes(action ?? '');
  const members = (values.member as string[] | undefined) ?? [];
  const common = { members, options: values as DbCommand['options'] };
  if (values.help || action === undefined || action === 'help') return { kind: 'db', action: 'help', ...(known ? { topic: action as DbAction } : {}), ...common };
  if (!known) throw usage(`unknown command \`db ${action}\``, help);
  if (rest.length > 0) throw usage(`unexpected argument ${rest[0]}`, help);
  for (const [name, spec] of Object.entries(DB_OPTIONS) as [string, DbOptionSpec][]) {
    const given = values[name];
    if (spec.dbActions && !spec.dbActions.includes(action as DbAction) && given !== undefined) {
      throw usage(`--${name} is an option of db ${spec.dbActions.join(' and ')}`, help);
    }
    if (typeof given === 'string' && given.trim() === '') throw usage(`option --${name} needs a value, not an empty string`, help);
  }
  for (const member of members) if (member.trim() === '') throw usage('option --member needs a role name, not an empty string', help);
  return { kind: 'db', action: action as DbAction, ...common };
}

/** `chatkeep db --help`, or that of one subcommand (its options only). */
export function dbHelp(topic?: DbAction): string {
  const actions = topic ? [topic] : DB_ACTIONS;
  const options = Object.fromEntries(Object.entries(DB_OPTIONS).filter(([, spec]: [string, DbOptionSpec]) => !topic || !spec.dbActions || spec.dbActions.includes(topic)));
  return [
    'Usage:',
    ...actions.flatMap((a) => DB_USAGE[a]),
    '',
    'Options:',
    ...formatOptions(options),
    '',
    'TLS as libpq reads it: ?sslmode=disable|allow|prefer|require|verify-ca|verify-full, sslrootcert, sslcert and',
    'sslkey in the URL, or PGSSLMODE, PGSSLROOTCERT, PGSSLCERT and PGSSLKEY.',
    '',
  ].join('\n');
}
