/**
 * `chatkeep/ai-sdk`: chat persistence for the Vercel AI SDK, the three functions of its
 * persistence guide (`createChat`, `loadChat`, `saveChat`) kept in chatkeep sessions: a chat is
 * a session (listed, searchable, exportable, its text readable in `show`), each `UIMessage` a
 * message journaled and fdatasync'ed before `saveChat` resolves, given back field for field.
 * `saveChat` stores only what changed (by message id); one server process writes a chat at a
 * time (the session's lock), the others wait for it.
 *
 * @example
 * ```ts
 * import { openSessions } from 'chatkeep';
 * import { openChatStore } from 'chatkeep/ai-sdk';
 * const sessions = await openSessions({ home: '/srv/chats', cwd: process.cwd() });
 * const { createChat, loadChat, saveChat } = await openChatStore(sessions);
 * // in the route: result.toUIMessageStreamResponse({ originalMessages, onFinish: ({ messages }) => saveChat({ chatId, messages }) })
 * ```
 */
import { randomUUID } from 'node:crypto';
import type { UIMessage } from 'ai';
import { AmbiguousIdError, UnknownSessionError } from '../../session/api/errors.js';
import { sessionIdFor } from '../framework-id.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { ChatHolds, type HoldOptions } from './holds.js';
import { chatOf, messageOf, rememberSaved, savedFromThis, versionsOf } from './messages.js';
import { sameMessage } from './same-message.js';

export { chatOf, messageOf } from './messages.js';
/** The session ID a chat ID names (docs/library.md, *A framework's own IDs*). */
export { sessionIdFor } from '../framework-id.js';
export type { HoldOptions as ChatStoreOptions } from './holds.js';

/** A reply being streamed into a chat: its text is journaled as it arrives, so a crash keeps it, marked unfinished. */
export interface ChatReply {
  /**
   * Adds text (journaled without fsync) and resolves to the text this call stored: redacted,
   * what a crash keeps, so safe to show ('' while the end of a word is awaited; `finish`
   * stores the rest). One push at a time: await each before the next.
   */
  push(text: string): Promise<string>;
  /**
   * Stores the finished reply as this UI message (fdatasync'ed), lets go of the chat, and
   * resolves to the text it stored that no push returned (the last word): what is left to show.
   */
  finish(message: UIMessage): Promise<string>;
}

/** The AI SDK guide's chat store, kept by chatkeep. */
export interface ChatStore<M extends UIMessage = UIMessage> {
  /** A new chat's id. Nothing is stored until its first `saveChat`: a chat exists once it holds a message. */
  createChat(): Promise<string>;
  /** The chat's messages as saved (`[]` for a chat that holds none yet). */
  loadChat(id: string): Promise<M[]>;
  /**
   * Stores what `messages` holds that the chat does not: new messages appended, a changed message
   * (by id) stored as its new version, messages left out marked superseded (kept in the transcript).
   * Saving the same array again stores nothing. Waits while another process writes the chat,
   * up to `waitMs`, then throws `SessionInUseError` naming it.
   */
  saveChat(options: { chatId: string; messages: M[] }): Promise<void>;
  /** Starts the assistant's reply in the chat (held until `finish`): a kill -9 mid-stream leaves it as an interrupted message. */
  streamReply(chatId: string): Promise<ChatReply>;
  /** Lets go of every chat this store holds (saved, locks released). */
  close(): Promise<void>;
}

/**
 * Opens the AI SDK chat store over `sessions`. A chat this process saved stays held for
 * `holdMs` (default 2 s) after its last save, so the reply's save is one journal append;
 * `waitMs` (default 10 s): how long a save waits for a chat another process holds.
 */
export async function openChatStore<M extends UIMessage = UIMessage>(sessions: SessionManager, options: HoldOptions = {}): Promise<ChatStore<M>> {
  const holds = new ChatHolds(sessions, options);
  return {
    createChat: async () => randomUUID(),
    async loadChat(id) {
      const here = holds.current(id);
      if (here) return chatOf(here.messages, id) as M[];
      const sessionId = sessionIdFor(id);
      const snapshot = await sessions.read(sessionId).catch((err: unknown) => {
        // The start of several stored IDs: not this chat, which has none yet.
        if (err instanceof UnknownSessionError || err instanceof AmbiguousIdError) return undefined;
        throw err;
      });
      // read() takes a prefix; a chat ID is exact (as in saveChat): the start of a longer ID is not this chat.
      return snapshot && snapshot.id === sessionId ? (chatOf(snapshot.messages, id) as M[]) : [];
    },
    async saveChat({ chatId, messages }) {
      await holds.with(chatId, async (session) => {
        const stored = versionsOf(session.messages, chatId);
        // What the chat does not hold as it is, mapped before anything is written: a message that
        // cannot be kept whole is refused with none of the save stored. Only those are mapped, so
        // a save costs the messages it stores, not the chat (docs/design.md §15).
        const changed = messages.flatMap((m) => {
          const before = stored.get(m.id);
          const same = before && (sameMessage(before.message, m) || savedFromThis(session.messages[before.indexes.at(-1)!], m));
          return same ? [] : [{ given: m, stored: messageOf(m), before }];
        });
        for (const m of changed) {
          // The new version first: a crash between the two leaves both, and the newer stands.
          rememberSaved(await session.append(m.stored), m.given);
          if (m.before) await session.supersedeMessages(m.before.indexes);
        }
        const ids = new Set(messages.map((m) => m.id));
        const dropped = [...stored].flatMap(([id, v]) => (ids.has(id) ? [] : v.indexes));
        if (dropped.length > 0) await session.supersedeMessages(dropped);
      });
    },
    async streamReply(chatId) {
      const session = await holds.take(chatId);
      const writer = session.beginReply();
      return {
        async push(text) {
          return writer.push(text);
        },
        async finish(message) {
          try {
            const { role: _role, content: _content, timestamp: _at, ...extra } = messageOf(message);
            const shown = writer.stored.length;
            return (await writer.finish(extra)).content.slice(shown);
          } finally {
            holds.done(chatId);
          }
        },
      };
    },
    close: () => holds.close(),
  };
}
