/**
 * A `chatkeep sessions` subcommand described as data, one file each, listed in ./index.ts (as the
 * slash commands are in commands/index.ts and gemini-cli's `mcp add|list|remove` are). The parser,
 * `--help`, the option table's help lines, flag placement and the docs checks are all made from
 * that list; `run` imports the work itself only when the subcommand runs, so `--help` stays instant.
 */
import type { OptionUse } from '../subcommand-options.js';
import type { UsageForm } from '../usage-lines.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import type { SessionsOptionName, SessionsOptions } from '../sessions-option-table.js';

/** What a subcommand takes after its name: at least `min` words, at most `max`; `missing` completes "sessions NAME needs …". */
export interface Arguments {
  min: number;
  max: number;
  missing?: string;
}
export const NO_ARGUMENTS: Arguments = { min: 0, max: 0 };
export const ONE_ID: Arguments = { min: 1, max: 1, missing: 'a session ID' };
export const SOME_IDS: Arguments = { min: 1, max: Infinity, missing: 'a session ID (or several)' };
export const ANY_ARGUMENTS: Arguments = { min: 0, max: Infinity };

/** Subcommands shown in `chatkeep --help` as one line (`sessions rm|trash|… …   the trash`). */
export interface SubcommandGroup {
  /** What follows the names, e.g. ` ID` when each takes one. */
  args?: string;
  summary: string;
}

/** Says what is wrong with the command line in one line (exit 2). */
export type Fail = (what: string) => Error;

export interface SessionsSubcommand {
  name: string;
  /** What it takes after its name (with `import`, it depends on --from). */
  args: Arguments | ((options: SessionsOptions) => Arguments);
  /** The options it takes besides --home, --store and --help, which every one takes. */
  options: { readonly [K in SessionsOptionName]?: OptionUse<SessionsOptionName> };
  /** Its forms in `--help`, in order. */
  usage: readonly UsageForm[];
  group?: SubcommandGroup;
  /** A line said once below the usage of the subcommands shown. */
  note?: string;
  /** What it cannot go without, checked before its options are: `fail` with what is missing. */
  require?: (args: readonly string[], options: SessionsOptions, fail: Fail) => void;
  /** Checks once every option given is known to be its own (options that go together or exclude each other). */
  check?: (args: readonly string[], options: SessionsOptions, fail: Fail) => void;
  /** The command, when it is not `id` and `ids` from the arguments. */
  parse?: (args: readonly string[], options: SessionsOptions, fail: Fail) => SessionsCommand;
  /** Runs it, writing to `environment`'s streams; resolves to the exit code. */
  run: (command: SessionsCommand, environment: SessionsEnvironment) => Promise<number>;
}
