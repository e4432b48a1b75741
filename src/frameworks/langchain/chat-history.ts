/**
 * The LangChain chat history itself (`chatkeep/langchain`, which loads it once `@langchain/core`
 * is known to be there).
 */
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { mapStoredMessageToChatMessage, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import type { Message, NewMessage } from '../../session/api/data.js';
import type { SaveResult, Session } from '../../session/api/session-api.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { nativeItem, rebuild } from '../../convert/lossless.js';
import { nativeOf, withNative } from '../../convert/native-slot.js';
import { appendAll, holdSession, liveMessages, type HandleHold, type HandleOptions } from '../history.js';
import { FORMAT, fieldsOf, itemFromFields, itemOf } from './messages.js';

/** The chatkeep message a LangChain message is stored as. */
export function messageOf(message: BaseMessage): NewMessage {
  const item = itemOf(message);
  const fields = fieldsOf(item);
  return withNative(fields, nativeItem(FORMAT, item, itemFromFields(fields)));
}

/** The LangChain message a stored message gives back (one another host wrote: from its fields). */
export function langchainMessageOf(message: Message): BaseMessage {
  const { type, ...data } = rebuild(nativeOf(message, FORMAT), itemFromFields(message));
  return mapStoredMessageToChatMessage({ type, data } as unknown as StoredMessage);
}

/** A `BaseListChatMessageHistory` over a chatkeep session held by this process. */
export class ChatkeepChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['chatkeep', 'langchain'];

  /**
   * @param session a chatkeep session this process holds (`create()`, `resume()`, or a REPL controller's current one).
   * @param hold how `openChatHistory` holds it (shared with the other handles on its ID); without it, `close()` closes the session.
   */
  constructor(
    readonly session: Session,
    private readonly hold?: HandleHold,
  ) {
    super();
  }

  /** The conversation as stored (a `/compact` summary first, superseded messages left out). */
  async getMessages(): Promise<BaseMessage[]> {
    return liveMessages(this.session).map(langchainMessageOf);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** Stores the messages, in order, each durable (journaled, fdatasync'ed) before the next. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    // Mapped first: a message that cannot be kept whole is refused before any is written.
    await appendAll(this.session, messages.map(messageOf));
  }

  /** Empties the history; what it held is archived inside the session, as `/reset` does, and the ID stays. */
  override async clear(): Promise<void> {
    await this.session.reset();
  }

  /** Saves, and lets go of the chatkeep session: the last handle on it in this process releases its lock. */
  close(): Promise<SaveResult> {
    return this.hold ? this.hold.release() : this.session.close();
  }
}

/**
 * Opens a chat message history kept by chatkeep. `id`: LangChain's session ID (exact; `user:42`
 * works too, see *IDs your program chooses* in docs/library.md): the session this process
 * already holds under it (shared), else resumed (taking its lock: `SessionInUseError`, exit 3,
 * while another process holds it) or created; without it a new one is made. `provider`
 * (`{ name, model? }`): the assistant the host talks to, recorded as the session's.
 */
export async function openChatHistory(sessions: SessionManager, options: HandleOptions = {}): Promise<ChatkeepChatMessageHistory> {
  const { session, hold } = await holdSession(sessions, options);
  return new ChatkeepChatMessageHistory(session, hold);
}
