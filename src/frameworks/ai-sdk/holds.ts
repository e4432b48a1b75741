/**
 * The chat sessions a server process holds, one writer per chat across processes: a chat is
 * taken (its session resumed or created, with its lock) when a save needs it and let go after
 * `holdMs` without use, so a chat's next save in the same process (the reply after the
 * question) is one journal append, and another server process gets it soon after. While
 * another process holds a chat, taking it is tried again until `waitMs` have passed; then the
 * `SessionInUseError` naming the holder is thrown. Nothing of two processes ever interleaves.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionExistsError, SessionInUseError } from '../../session/api/errors.js';
import type { Session } from '../../session/api/session-api.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { sessionIdFor } from '../framework-id.js';
import { acquire, type HostProvider, type SharedHold } from '../shared-sessions.js';

export interface HoldOptions {
  /** How long a chat stays held after its last use, in ms (default 2000). */
  holdMs?: number;
  /** How long to wait for a chat another process holds, in ms (default 10000). */
  waitMs?: number;
  /** The provider and model the server talks to, recorded as each chat's (`{ name: 'openai', model: 'gpt-4o-mini' }`). */
  provider?: HostProvider;
}

interface Held {
  /** The session, shared with the program's other handles on it (see shared-sessions.ts). */
  session: Promise<SharedHold>;
  users: number;
  timer?: NodeJS.Timeout;
}

/** How long to sleep between tries at a chat another process holds. */
const RETRY_MS = 25;

export class ChatHolds {
  private readonly held = new Map<string, Held>();
  private readonly holdMs: number;
  private readonly waitMs: number;
  private readonly provider: HostProvider | undefined;

  constructor(
    private readonly sessions: SessionManager,
    options: HoldOptions = {},
  ) {
    this.holdMs = options.holdMs ?? 2000;
    this.waitMs = options.waitMs ?? 10_000;
    this.provider = options.provider;
  }

  /** Runs `fn` with the chat's session held by this process, under the session's mutex. */
  async with<T>(chatId: string, fn: (session: Session) => Promise<T>): Promise<T> {
    const session = await this.take(chatId);
    try {
      return await session.runExclusive(() => fn(session));
    } finally {
      this.done(chatId);
    }
  }

  /** The chat's session, held for the caller until `done(chatId)`. */
  take(chatId: string): Promise<Session> {
    let entry = this.held.get(chatId);
    if (!entry) {
      entry = { session: this.open(chatId), users: 0 };
      this.held.set(chatId, entry);
      const failed = entry;
      entry.session.catch(() => {
        if (this.held.get(chatId) === failed) this.held.delete(chatId);
      });
    }
    clearTimeout(entry.timer);
    entry.users += 1;
    return entry.session.then((h) => h.session);
  }

  /** The caller is done with the chat: let go of it after `holdMs` unless used again. */
  done(chatId: string): void {
    const entry = this.held.get(chatId);
    if (!entry || --entry.users > 0) return;
    entry.timer = setTimeout(() => void this.release(chatId, entry), this.holdMs);
    entry.timer.unref();
  }

  /** Lets go of every chat (each saved and its lock released). */
  async close(): Promise<void> {
    await Promise.all([...this.held.entries()].map(([id, entry]) => this.release(id, entry)));
  }

  /** The session when this process holds the chat already, for reading it as it is here. */
  current(chatId: string): Session | undefined {
    return this.sessions.opened(sessionIdFor(chatId));
  }

  private async release(chatId: string, entry: Held): Promise<void> {
    clearTimeout(entry.timer);
    if (this.held.get(chatId) !== entry || entry.users > 0) return;
    this.held.delete(chatId);
    const held = await entry.session.catch(() => undefined);
    await held?.release();
  }

  /** Resumes or creates the chat's session, waiting while another process holds it. */
  private async open(chatId: string): Promise<SharedHold> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      try {
        return await acquire(this.sessions, chatId, this.provider);
      } catch (err) {
        // Another process holds it, or created it between our look and our create: try again.
        const again = err instanceof SessionInUseError || err instanceof SessionExistsError;
        if (!again || Date.now() >= deadline) throw err;
        await sleep(RETRY_MS);
      }
    }
  }
}
