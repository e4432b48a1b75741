/**
 * `chatkeep/langchain`: a LangChain.js chat message history kept in a chatkeep session, for
 * `RunnableWithMessageHistory` or any code that takes a `BaseListChatMessageHistory`: each
 * message is journaled and fdatasync'ed before `addMessages` resolves, under the session's lock
 * (one writer, fenced), listed, searchable and resumable like any chatkeep session, and given
 * back by `getMessages` as the same class with the same fields (tool calls, tool results,
 * content blocks, `additional_kwargs`, `response_metadata`, usage, ids).
 *
 * @example
 * ```ts
 * import { RunnableWithMessageHistory } from '@langchain/core/runnables';
 * import { openSessions } from 'chatkeep';
 * import { openChatHistory } from 'chatkeep/langchain';
 * const sessions = await openSessions({ home: '/home/ann/.chatkeep', cwd: process.cwd() });
 * const histories = new Map();
 * const chain = new RunnableWithMessageHistory({
 *   runnable: model,
 *   getMessageHistory: async (id) => histories.get(id) ?? histories.set(id, await openChatHistory(sessions, { id })).get(id),
 * });
 * ```
 */
import { importRequired } from '../../session/runtime/optional-package.js';

// The history extends LangChain's own class, so `@langchain/core` (an optional peer) is needed
// before it can be defined: without it, importing this subpath rejects with a
// `MissingPackageError` naming the package, not a bare ERR_MODULE_NOT_FOUND.
const adapter = await importRequired('@langchain/core', 'chatkeep/langchain', () => import('./chat-history.js'));

export const { ChatkeepChatMessageHistory, messageOf, langchainMessageOf, openChatHistory } = adapter;
/** The session ID a LangChain session ID names (docs/library.md, *A framework's own IDs*). */
export { sessionIdFor } from '../framework-id.js';
/** A LangChain `BaseListChatMessageHistory` kept in a chatkeep session. */
export type ChatkeepChatMessageHistory = import('./chat-history.js').ChatkeepChatMessageHistory;
