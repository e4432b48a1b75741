/**
 * Every option of `chatkeep sessions …`, in the order `--help` lists them: how each is parsed and
 * what it means where its meaning is shared. Which subcommands take an option, and what it means
 * for each, is said by the subcommands (sessions/index.ts); the help line is made from both (sessions/options.ts).
 */
import { REPL_OPTIONS } from './chat-options.js';
import { parseAge } from './age.js';
import type { Parsed } from './option-spec.js';
import type { SubcommandOptionSpec } from './subcommand-options.js';

export interface SessionsOptionSpec extends SubcommandOptionSpec {
  /** Checks a value before anything else is (a bad AGE is said whatever the subcommand). */
  check?: (value: string) => void;
}

export const SESSIONS_OPTION_TABLE = {
  all: { type: 'boolean', short: 'a', means: 'every project, not just this one' },
  json: { type: 'boolean', description: 'machine-readable JSON' },
  branch: { type: 'string', value: 'NAME' },
  empty: { type: 'boolean' },
  archived: { type: 'boolean' },
  project: { type: 'string', value: 'PATH' },
  limit: { type: 'string', value: 'N' },
  format: { type: 'string', value: 'FORMAT' },
  output: { type: 'string', short: 'o', value: 'FILE' },
  'no-redact': { type: 'boolean' },
  from: { type: 'string', value: 'TOOL' },
  since: { type: 'string', value: 'AGE' },
  to: { type: 'string', value: 'URL|DIR' },
  'older-than': { type: 'string', value: 'AGE', check: (value: string) => void parseAge(value) },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  restore: { type: 'boolean' },
  forget: { type: 'boolean' },
  with: { type: 'string', value: 'ROLE', means: "the database role (a person's login) to share with or stop sharing with" },
  team: { type: 'boolean', means: 'every member of the team' },
  write: { type: 'boolean' },
  at: { type: 'string', value: 'N', means: 'copy only the first N messages' },
  title: { type: 'string', value: 'TEXT', means: "the new session's title (default: its source's)" },
  home: { ...REPL_OPTIONS.home, every: true },
  store: { ...REPL_OPTIONS.store, every: true },
  help: { ...REPL_OPTIONS.help, every: true },
} as const satisfies Record<string, SessionsOptionSpec>;

export type SessionsOptionName = keyof typeof SESSIONS_OPTION_TABLE;
/** The options given on a `sessions` command line. */
export type SessionsOptions = Parsed<typeof SESSIONS_OPTION_TABLE>;
