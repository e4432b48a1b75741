/**
 * `chatkeep db setup|status` (docs/design.md §9): a team's PostgreSQL server, set up by its admin
 * and looked at by anyone. Both need a PostgreSQL store; neither touches a data directory.
 */
import { UserError } from '../session/api/errors.js';
import { dbHelp } from './db-options.js';
import { dbSubcommand } from './db/index.js';
import type { DbCommand, DbEnvironment } from './db/subcommand.js';

/** Runs the subcommand; resolves to the exit code. */
export async function runDbCommand(command: DbCommand, environment: DbEnvironment): Promise<number> {
  const { stdout } = environment;
  if (command.action === 'help') {
    // On a terminal the text flows as one line per form, for the wrapper to break to the width.
    stdout.write(dbHelp(command.topic, (stdout as Partial<NodeJS.WriteStream>).isTTY === true));
    return 0;
  }
  const url = environment.store;
  if (url === undefined) {
    throw new UserError(
      `chatkeep db ${command.action} works on a PostgreSQL store, and the sessions here are kept in the data directory: set CHATKEEP_STORE=postgres://USER@HOST/DATABASE (or the config's "store").`,
      'E_STORE',
    );
  }
  return dbSubcommand(command.action)!.run(command, url, environment);
}
