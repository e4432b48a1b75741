/**
 * `chatkeep db setup|status` (issue 22 item 2): a team's PostgreSQL server, set up by its admin
 * and looked at by anyone. Both need a PostgreSQL store; neither touches a data directory.
 */
import { UserError } from '../session/errors.js';
import { chatkeepCommand } from '../terminal/invocation.js';
import type { DbCommand } from './db-options.js';
import { dbHelp } from './db-options.js';

export interface DbEnvironment {
  /** The store's URL (undefined: the data directory, where `db` has nothing to do). */
  store: string | undefined;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
}

/** Runs the subcommand; resolves to the exit code. */
export async function runDbCommand(command: DbCommand, environment: DbEnvironment): Promise<number> {
  const { stdout } = environment;
  if (command.action === 'help') {
    stdout.write(dbHelp(command.topic));
    return 0;
  }
  const url = environment.store;
  if (url === undefined) {
    throw new UserError(
      `chatkeep db ${command.action} works on a PostgreSQL store, and the sessions here are kept in the data directory: set CHATKEEP_STORE=postgres://USER@HOST/DATABASE (or the config's "store").`,
      'E_STORE',
    );
  }
  const json = command.options.json === true;
  const { withPool } = await import('../store/postgres/pool-scope.js');
  if (command.action === 'status') {
    const { dbStatus } = await import('../store/postgres/db-status.js');
    const status = await withPool(url, environment.env, dbStatus, { migrate: false });
    stdout.write(json ? `${JSON.stringify(status, null, 2)}\n` : `${(await import('./db-text.js')).statusLines(status).join('\n')}\n`);
    return 0;
  }
  const { setupTeam, setupScript } = await import('../store/postgres/team-setup.js');
  const print = command.options.print === true;
  const result = await withPool(url, environment.env, (pool, target) => setupTeam(pool, target, command.members, print), { migrate: false });
  if (json) stdout.write(`${JSON.stringify({ ...result, applied: !print }, null, 2)}\n`);
  else if (print) stdout.write(setupScript(result));
  else stdout.write(`${(await import('./db-text.js')).setupLines(result, chatkeepCommand(['db', 'status'])).join('\n')}\n`);
  return 0;
}
