/** A `chatkeep db` subcommand described as data, as the `sessions` ones are (../sessions/subcommand.ts). */
import type { DbCommand, DbOptionName } from '../db-options.js';
import type { StoreEnvironment } from '../environment.js';
import type { OptionUse } from '../subcommand-options.js';
import type { UsageForm } from '../usage-lines.js';

/** `store` undefined: the data directory, where `db` has nothing to do. */
export interface DbEnvironment extends Pick<StoreEnvironment, 'store' | 'env'> {
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
