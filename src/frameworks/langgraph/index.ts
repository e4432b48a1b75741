/**
 * `chatkeep/langgraph`: a LangGraph.js checkpointer kept in chatkeep sessions. A thread is a
 * session under the thread's own ID; every `put`, `putWrites` and `deleteThread` is journaled
 * and fdatasync'ed before it resolves, under the thread's lock (one writer per thread across
 * processes: another gets `SessionInUseError` naming the holder). Threads are listed,
 * searchable and exportable like any chatkeep session, their `messages` channel stored as the
 * session's messages.
 *
 * @example
 * ```ts
 * import { openSessions } from 'chatkeep';
 * import { openCheckpointSaver } from 'chatkeep/langgraph';
 * const sessions = await openSessions({ home: '/srv/graphs', cwd: process.cwd() });
 * const checkpointer = await openCheckpointSaver(sessions);
 * const graph = workflow.compile({ checkpointer });
 * await graph.invoke(input, { configurable: { thread_id: 'user-42' } });
 * await checkpointer.close();
 * ```
 */
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { importRequired } from '../../session/runtime/optional-package.js';
import type { CheckpointSaverOptions, ChatkeepSaver } from './saver.js';

export type { CheckpointSaverOptions, ChatkeepSaver } from './saver.js';

/**
 * The checkpointer over `sessions`. `@langchain/langgraph-checkpoint` (an optional peer) is
 * needed: without it this rejects with a `MissingPackageError` naming the package.
 */
export async function openCheckpointSaver(sessions: SessionManager, options: CheckpointSaverOptions = {}): Promise<ChatkeepSaver> {
  const { ChatkeepSaver: Saver } = await importRequired('@langchain/langgraph-checkpoint', 'chatkeep/langgraph', () => import('./saver.js'));
  return new Saver(sessions, options);
}
