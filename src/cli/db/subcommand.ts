/** A `chatkeep db` subcommand described as data, as the `sessions` ones are (../sessions/subcommand.ts). */
import type { StoreEnvironment } from '../environment.js';
import type { OptionUse, SubcommandOptionSpec } from '../subcommand-options.js';
import type { UsageForm } from '../usage-lines.js';

export interface DbOptionSpec extends SubcommandOptionSpec {
  multiple?: boolean;
}

/** Every option of `chatkeep db …`; which subcommand takes which, and what it means there, is said by each (./db/). */
export const DB_OPTION_TABLE = {
  member: { type: 'string', value: 'ROLE', multiple: true },
  print: { type: 'boolean' },
  json: { type: 'boolean', description: 'machine-readable JSON' },
  store: { type: 'string', value: 'URL', description: 'the PostgreSQL server (default: $CHATKEEP_STORE, else config "store")', every: true },
  home: { type: 'string', value: 'DIR', description: 'data directory, where the config is read (default: $CHATKEEP_HOME, else ~/.chatkeep)', every: true },
  help: { type: 'boolean', short: 'h', description: 'show this help', every: true },
} as const satisfies Record<string, DbOptionSpec>;
export type DbOptionName = keyof typeof DB_OPTION_TABLE;

export interface DbCommand {
  kind: 'db';
  /** The subcommand's name, or `help` (with `topic`: the help of that subcommand). */
  action: string;
  topic?: string;
  members: string[];
  options: { print?: boolean; json?: boolean; store?: string; home?: string; help?: boolean };
}

/** `store` undefined: the data directory, where `db` has nothing to do. */
export interface DbEnvironment extends Pick<StoreEnvironment, 'store' | 'env' | 'host'> {
  stdout: NodeJS.WritableStream;
}

export interface DbSubcommand {
  name: string;
  /** The options it takes besides those every one takes (--store, --home, --help), and what each means here. */
  options: { readonly [K in DbOptionName]?: OptionUse<DbOptionName> };
  usage: readonly UsageForm[];
  /** Runs it on the PostgreSQL server at `url`; resolves to the exit code. */
  run: (command: DbCommand, url: string, environment: DbEnvironment) => Promise<number>;
}
