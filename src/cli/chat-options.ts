/** The options of the chat itself (`chatkeep [options]`): one table drives parsing and `--help`. */
import type { OptionSpec } from './option-spec.js';

export const REPL_OPTIONS = {
  prompt: { type: 'string', short: 'p', value: 'TEXT', description: 'answer TEXT once and exit: the reply on stdout, the way back on stderr (piped input is sent after TEXT)' },
  'session-id': { type: 'string', value: 'ID', description: 'resume that session (a unique prefix of an ID is enough; any project)' },
  continue: { type: 'boolean', short: 'c', description: "resume this project's most recently updated session" },
  resume: { type: 'boolean', short: 'r', description: 'choose the session to resume in the session browser: type to search (interactive terminal only)' },
  fork: { type: 'string', value: 'ID', description: "continue in a new session holding a copy of ID's conversation (ID is left untouched)" },
  at: { type: 'string', value: 'N', description: 'with --fork: copy only the first N messages' },
  home: { type: 'string', value: 'DIR', description: 'data directory (default: $CHATKEEP_HOME, else ~/.chatkeep)' },
  store: { type: 'string', value: 'URL', description: 'keep sessions on a PostgreSQL server (postgres://user@host/db), or file (default: $CHATKEEP_STORE, else config "store", else the data directory)' },
  autosave: { type: 'string', value: 'SPEC', description: 'off, a duration (30s, 5m) or a cron expression (default "*/5 * * * *")' },
  provider: { type: 'string', value: 'NAME', description: 'echo (offline), anthropic or openai (default: echo unless an API key is set)' },
  model: { type: 'string', value: 'NAME', description: "the provider's model" },
  system: { type: 'string', value: 'FILE', description: 'a system prompt read from FILE (its path and hash are recorded)' },
  'auto-compact': { type: 'boolean', description: 'compact the conversation without asking when it nears the context window (config: autoCompact)' },
  raw: { type: 'boolean', description: 'show replies as plain text, not rendered Markdown (pipes and NO_COLOR always are)' },
  'no-redact': { type: 'boolean', description: 'store secrets as typed instead of replacing them' },
  'no-persist': { type: 'boolean', description: 'chat without writing anything (no session, no history, no ID)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
} as const satisfies Record<string, OptionSpec>;
