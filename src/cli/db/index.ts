/** Every `chatkeep db` subcommand, in the order of `--help`; the parser and the help are made from it. */
import { setup } from './setup.js';
import { status } from './status.js';
import type { DbSubcommand } from './subcommand.js';

export const DB_SUBCOMMANDS: readonly DbSubcommand[] = [setup, status];

export function dbSubcommand(name: string | undefined): DbSubcommand | undefined {
  return DB_SUBCOMMANDS.find((subcommand) => subcommand.name === name);
}
