/**
 * chatkeep's embeddable session manager (docs/design.md §1, §2): sessions that survive `/quit`,
 * crashes, `kill -9` and power loss, for any Node REPL.
 *
 * @example
 * ```ts
 * import { openSessions } from 'chatkeep';
 * const sessions = await openSessions({ home: '/home/ann/.chatkeep', cwd: process.cwd() });
 * const session = await sessions.create();
 * await session.append({ role: 'user', content: 'hi' }); // durable once it resolves
 * await session.close();
 * ```
 */
export type * from './session/api/data.js';
export type { SessionProblem, SessionReading, SessionSummary } from './session/api/listing.js';
export type * from './session/api/session-api.js';
export type * from './session/runtime/manager-api.js';
export type { Autosave, AutosaveSchedule } from './session/runtime/autosave.js';
export type * from './session/format/store.js';
export type * from './session/api/search-data.js';
export type * from './session/api/message-parts.js';
export * from './session/api/errors.js';
/**
 * What the framework adapters refuse before writing anything: an item JSON cannot hold (a
 * function, a cycle); the start of a stored ID where an exact one is meant.
 */
export { PrefixNotIdError, UnstorableItemError } from './session/api/adapter-errors.js';

/**
 * Opens the session store at `options.home` for the project of `options.cwd`.
 * `create()`, `resume(idOrPrefix)`, `list()`, `read()`, `latest()`, `holder()`, `history`
 * and `readConfig()` hang off the returned manager.
 */
export { openSessions } from './store/open.js';

/**
 * Parses an `--autosave` spec (`off`, `30s`, `5m`, `2h`, or a 5/6-field cron expression) into a
 * schedule whose `description` suits a banner (`every 5 min`). Throws `AutosaveSpecError`
 * (exit code 2) for invalid specs and for expressions that never fire.
 */
export { parseAutosaveSpec, DEFAULT_AUTOSAVE_SPEC } from './session/runtime/autosave.js';

/**
 * Starts autosaving a session on a schedule: a cron job whose tick saves only when something
 * changed, never overlaps another save and never keeps the process alive. `stop()` waits for
 * a running tick.
 */
export { startAutosave } from './session/runtime/autosave.js';

/**
 * Builds the redactor chatkeep applies before writing: known secret formats and the values of
 * environment variables named like `*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*` become
 * `[REDACTED:<kind>]`.
 */
export { createRedactor } from './session/runtime/redact.js';

/** True when a string may be used as a session ID (`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`). */
export { isValidId } from './session/api/ids.js';

/** The snapshot `schemaVersion` this build writes; older files are migrated on read. */
export { SCHEMA_VERSION } from './session/format/migrations.js';

/** The longest session title stored, in characters; `setTitle`/`save({title})` cut a longer one, ending it in `…`. */
export { MAX_TITLE_LENGTH } from './session/api/title.js';

/**
 * `/compact`'s view of a conversation: `messagesToSend(session.messages, session.summary)` is
 * what a model gets (the summary first, superseded answers left out); `keptByCompaction(messages)`
 * is how many last messages `session.compact(summary, keep)` keeps live in chatkeep's own REPL.
 */
export { messagesToSend, keptByCompaction } from './session/model/compaction.js';
/**
 * The results a tool call is given when none came (`closeToolCalls`, which `messagesToSend`
 * applies): never answered, or cut off with the reply that made it.
 */
export { closeToolCalls, UNANSWERED, INTERRUPTED_CALL } from './session/model/history.js';

/**
 * Converters between chatkeep's messages and each SDK's own: `fromOpenAIChat(messages)` gives
 * messages to `append()`, `toOpenAIChat(messages)` what `chat.completions.create` takes (give it
 * `messagesToSend(…, { provider: 'openai' })`); the same for the Responses API's input items and
 * for Anthropic's `{ system, messages }`. Each SDK's message comes back deep-equal: what
 * chatkeep's fields do not hold is kept as the message's native item.
 */
export { fromOpenAIChat, toOpenAIChat } from './convert/openai-chat.js';
export type { OpenAIChatInput, OpenAIChatMessage, OpenAIChatTextPart, OpenAIChatToolCall, OpenAIChatUserPart } from './convert/openai-chat.js';
export { fromAnthropic, toAnthropic } from './convert/anthropic.js';
export type { AnthropicBlock, AnthropicConversation, AnthropicImageBlock, AnthropicMessage, AnthropicTextBlock } from './convert/anthropic.js';
export { fromOpenAIResponses, toOpenAIResponses } from './convert/openai-responses.js';
export type { OpenAIResponsesInputPart, OpenAIResponsesItem, OpenAIResponsesOutputPart } from './convert/openai-responses.js';
