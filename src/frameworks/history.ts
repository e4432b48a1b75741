/**
 * A framework's history over a chatkeep session held by this process: what both adapters do
 * with the session itself. Every message is journaled and fdatasync'ed before the framework's
 * call resolves; removing and clearing keep what they take out (superseded, or archived as
 * `/reset` archives), as everything chatkeep stores is kept.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import type { SaveResult, Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { withSummary } from '../session/model/compaction.js';
import { acquire, type HostProvider } from './shared-sessions.js';

/**
 * The history as stored, for the framework to read: its `/compact` summary first (as the user
 * message chatkeep's REPL sends), superseded messages left out. Nothing else is changed: a
 * framework's history holds what it put there (a tool call waiting for the result the host
 * sends next is not closed, as chatkeep's own `messagesToSend` closes one).
 */
export function liveMessages(session: Session): Message[] {
  return withSummary(session.messages.filter((m) => !m.superseded), session.summary, session.messages);
}

/** Appends messages in order under the session's mutex, each durable before the next. */
export function appendAll(session: Session, messages: readonly NewMessage[]): Promise<void> {
  return session.runExclusive(async () => {
    for (const message of messages) await session.append(message);
  });
}

/**
 * Takes the last live message out of what is sent (it stays in the transcript, superseded) and
 * returns it; undefined when there is none. `rest`: what of it to append again (a message
 * that held several framework items gives back all but the last).
 */
export function popLast(session: Session, rest: (message: Message) => NewMessage[] = () => []): Promise<Message | undefined> {
  return session.runExclusive(async () => {
    const at = session.messages.findLastIndex((m) => !m.superseded);
    if (at < 0) return undefined;
    const message = session.messages[at]!;
    await session.supersedeMessages([at]);
    for (const again of rest(message)) await session.append(again);
    return message;
  });
}

/** What an adapter's `open…` function takes. */
export interface HandleOptions {
  /** The framework's own ID for the conversation (exact; any non-empty string). */
  id?: string;
  /** The provider and model the host talks to, recorded as the session's. */
  provider?: HostProvider;
}

/** How a handle made by an adapter's `open…` function holds its session. */
export interface HandleHold {
  /** The framework's own ID for the conversation, as given (the session's ID when none was). */
  key: string;
  /** Lets go of the session: the last handle on it in this process closes it (see shared-sessions.ts). */
  release(): Promise<SaveResult>;
}

/**
 * The session a framework's history lives in, held by this process and shared with its other
 * handles on the same ID. `id`: the framework's own ID for it, exact (docs/library.md, *IDs your
 * program chooses*), mapped by `sessionIdFor`; without it a new session is made.
 */
export async function holdSession(sessions: SessionManager, options: HandleOptions): Promise<{ session: Session; hold: HandleHold }> {
  const shared = await acquire(sessions, options.id, options.provider);
  return { session: shared.session, hold: { key: options.id ?? shared.session.id, release: shared.release } };
}
