/**
 * The threads a saver holds: a thread is a chatkeep session (under the thread's own ID, as
 * `openOrCreate` keeps a framework's ID), taken with its lock on the first write and held until
 * the saver closes, so a second process writing the same thread gets `SessionInUseError` naming
 * the holder. Each thread's writes run one after the other, journal first, then the index, so the
 * index is always what the journal says. A thread not held here is read (snapshot and journal)
 * without its lock, as it is now.
 */
import { AmbiguousIdError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import type { Session } from '../../session/api/session-api.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import type { GraphEventType } from '../../session/api/graph-events.js';
import { ThreadIndex } from './thread-index.js';
import { openOrCreateFor, sessionIdFor } from '../framework-id.js';

/** The session ID a thread is kept under: the one place a thread's ID becomes a session's. */
export function sessionIdOf(threadId: string): string {
  return sessionIdFor(threadId);
}

export interface HeldThread {
  session: Session;
  index: ThreadIndex;
  /** IDs of the LangChain messages the session holds as messages. */
  messageIds: Set<string>;
}

interface Entry {
  held: Promise<HeldThread & { ours: boolean }>;
  queue: Promise<unknown>;
}

export class Threads {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly sessions: SessionManager) {}

  /** Runs `fn` with the thread held, after the thread's earlier writes. */
  write<T>(threadId: string, fn: (thread: HeldThread) => Promise<T>): Promise<T> {
    const entry = this.entry(threadId);
    const run = entry.queue.then(async () => fn(await entry.held));
    entry.queue = run.catch(() => undefined);
    return run;
  }

  /** Journals one graph event in the thread, then applies it to its index. */
  static async journal(thread: HeldThread, type: GraphEventType, payload: object): Promise<void> {
    await thread.session.journalGraph(type, payload as Record<string, unknown>);
    thread.index.apply(type, payload as Record<string, unknown>);
  }

  /** The thread's index: this saver's own when it holds it, else read as it is stored now (undefined: no such thread). */
  async index(threadId: string): Promise<ThreadIndex | undefined> {
    const entry = this.entries.get(threadId);
    if (entry) {
      await entry.queue;
      return (await entry.held).index;
    }
    const id = sessionIdOf(threadId);
    const mine = this.sessions.opened(id);
    if (mine) return ThreadIndex.of(mine.copyState().futureEvents);
    const snapshot = await this.sessions.read(id).catch((err: unknown) => {
      if (err instanceof UnknownSessionError || err instanceof AmbiguousIdError || err instanceof TrashedSessionError) return undefined;
      throw err;
    });
    // read() takes a prefix: a longer ID it found is another thread.
    return snapshot?.id === id ? ThreadIndex.of(snapshot.futureEvents) : undefined;
  }

  /** Every thread this saver can see: those it holds and the sessions of its project. */
  async ids(): Promise<string[]> {
    const listed = (await this.sessions.list({ empty: true })).map((s) => s.id);
    return [...new Set([...this.entries.keys(), ...listed])];
  }

  /** Lets go of every thread (each saved, its lock released). */
  async close(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map(async (entry) => {
        await entry.queue;
        const held = await entry.held.catch(() => undefined);
        if (held?.ours) await held.session.close();
      }),
    );
  }

  private entry(threadId: string): Entry {
    let entry = this.entries.get(threadId);
    if (!entry) {
      const held = this.open(threadId);
      entry = { held, queue: held.catch(() => undefined) };
      this.entries.set(threadId, entry);
      const failed = entry;
      // Not taken (another process holds it): the next write tries again.
      held.catch(() => {
        if (this.entries.get(threadId) === failed) this.entries.delete(threadId);
      });
    }
    return entry;
  }

  private async open(threadId: string): Promise<HeldThread & { ours: boolean }> {
    const id = sessionIdOf(threadId);
    const mine = this.sessions.opened(id);
    const session = mine ?? (await openOrCreateFor(this.sessions, threadId));
    const messageIds = new Set(session.messages.flatMap((m) => (m.id !== undefined ? [m.id] : [])));
    return { session, index: ThreadIndex.of(session.copyState().futureEvents), messageIds, ours: !mine };
  }
}
