/**
 * `chatkeep/openai-agents`: a `Session` of the OpenAI Agents SDK for JavaScript kept in a
 * chatkeep session: each `AgentInputItem` is one message, journaled and fdatasync'ed before
 * `addItems` resolves, under the session's lock (one writer, fenced), listed, searchable and
 * resumable like any chatkeep session, and given back by `getItems` deep-equal to what went in.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { openSessions } from 'chatkeep';
 * import { openAgentSession } from 'chatkeep/openai-agents';
 * const sessions = await openSessions({ home: '/home/ann/.chatkeep', cwd: process.cwd() });
 * const session = await openAgentSession(sessions); // or { id } to resume one
 * await run(new Agent({ name: 'helper' }), 'hi', { session });
 * await session.close();
 * ```
 */
import type { AgentInputItem, Session as AgentSession } from '@openai/agents';
import type { Message, NewMessage } from '../../session/api/data.js';
import type { SaveResult, Session } from '../../session/api/session-api.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { nativeItem, rebuild, type Item } from '../../convert/lossless.js';
import { nativeOf, withNative } from '../../convert/native-slot.js';
import { appendAll, holdSession, liveMessages, popLast, type HandleHold, type HandleOptions } from '../history.js';
import { FORMAT, fieldsOf, itemFromFields, itemsFromMessage } from './items.js';

/** The session ID a framework's own ID (`user:42`) names (docs/library.md, *A framework's own IDs*). */
export { sessionIdFor } from '../framework-id.js';

/** The message an item is stored as. */
export function messageOf(item: AgentInputItem): NewMessage {
  const fields = fieldsOf(item);
  return withNative(fields, nativeItem(FORMAT, item as unknown as Item, itemFromFields(fields)));
}

/**
 * The items of stored messages from the `from`-th on, in order (a message another host wrote
 * may give several; the calls before `from` still name the results after it).
 */
export function itemsOf(messages: readonly Message[], from = 0): AgentInputItem[] {
  const callNames = new Map<string, string>();
  const items: AgentInputItem[] = [];
  for (const [i, message] of messages.entries()) {
    for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
    if (i < from) continue;
    const native = nativeOf(message, FORMAT);
    const got = native ? [rebuild(native, itemFromFields(message))] : itemsFromMessage(message, callNames);
    items.push(...(got as unknown as AgentInputItem[]));
  }
  return items;
}

/** An Agents SDK `Session` over a chatkeep session held by this process. */
export class ChatkeepAgentSession implements AgentSession {
  /**
   * @param session a chatkeep session this process holds (`create()`, `resume()`, or a REPL controller's current one).
   * @param hold how `openAgentSession` holds it (shared with the other handles on its ID); without it, `close()` closes the session.
   */
  constructor(
    readonly session: Session,
    private readonly hold?: HandleHold,
  ) {}

  /** The ID this session was opened by (`openAgentSession`'s `id`, kept as given), else the chatkeep session's. */
  async getSessionId(): Promise<string> {
    return this.hold?.key ?? this.session.id;
  }

  /** The newest `limit` items (all without it), oldest first. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const messages = liveMessages(this.session);
    if (limit === undefined) return itemsOf(messages);
    // Each message gives at least one item: the last `limit` messages hold the last `limit` items.
    return limit > 0 ? itemsOf(messages, messages.length - limit).slice(-limit) : [];
  }

  /** Stores the items, in order, each durable (journaled, fdatasync'ed) before the next. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    // Mapped first: an item that cannot be kept whole is refused before any is written.
    await appendAll(this.session, items.map(messageOf));
  }

  /** Takes the newest item out of the history (kept in the transcript, superseded) and returns it. */
  async popItem(): Promise<AgentInputItem | undefined> {
    let popped: AgentInputItem | undefined;
    await popLast(this.session, (message) => {
      const items = itemsOf([message]);
      popped = items.pop();
      return items.map(messageOf);
    });
    return popped;
  }

  /** Empties the history; what it held is archived inside the session, as `/reset` does, and the ID stays. */
  async clearSession(): Promise<void> {
    await this.session.reset();
  }

  /** Saves, and lets go of the chatkeep session: the last handle on it in this process releases its lock. */
  close(): Promise<SaveResult> {
    return this.hold ? this.hold.release() : this.session.close();
  }
}

/**
 * Opens an Agents SDK session kept by chatkeep. `id`: the SDK's session ID (exact; `user:42`
 * works too, see *IDs your program chooses* in docs/library.md): the session this process
 * already holds under it (shared), else resumed (taking its lock: `SessionInUseError`, exit 3,
 * while another process holds it) or created; without it a new one is made. `provider`
 * (`{ name, model? }`): the assistant the host talks to, recorded as the session's.
 */
export async function openAgentSession(sessions: SessionManager, options: HandleOptions = {}): Promise<ChatkeepAgentSession> {
  const { session, hold } = await holdSession(sessions, options);
  return new ChatkeepAgentSession(session, hold);
}
