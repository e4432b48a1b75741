/** The options of `chatkeep sessions …` as `parseArgs` and `--help` take them, made from the table and the list. */
import { subcommandOptions } from '../subcommand-options.js';
import { SESSIONS_SUBCOMMANDS } from './index.js';
import { SESSIONS_OPTION_TABLE, type SessionsOptionName } from '../sessions-option-table.js';

const options = subcommandOptions<(typeof SESSIONS_SUBCOMMANDS)[number], SessionsOptionName>(SESSIONS_OPTION_TABLE, SESSIONS_SUBCOMMANDS);

/** Every option of `chatkeep sessions …`, in the table's order, each with its help line. */
export const SESSIONS_OPTIONS = options.specs;
export const { takes, optionsOf, foreign } = options;
