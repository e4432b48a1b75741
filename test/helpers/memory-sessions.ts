/**
 * The real session manager over the memory store (src/store/memory/), for tests of the REPL and
 * its commands: no files, a clock the test moves, and what other processes do to the sessions
 * (hold one, take one over, die holding one), done to the store's backing as they would do it.
 */
import { hostname } from 'node:os';
import { blankSnapshot } from '../../src/session/format/blank.js';
import type { LockOwner } from '../../src/session/api/errors.js';
import { searchRows } from '../../src/search/generic-search.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { Manager } from '../../src/session/runtime/manager.js';
import { forgetHeld } from '../../src/session/runtime/held-here.js';
import type { SessionImpl } from '../../src/session/runtime/session.js';
import type { Message, ProjectInfo } from '../../src/session/api/data.js';
import { MemoryBacking, type MemoryHolder } from '../../src/store/memory/backing.js';
import { MemoryStore } from '../../src/store/memory/store.js';

/** Where the tests' chats run (no such directory is needed: nothing touches the disk). */
export const PROJECT: ProjectInfo = { key: 'work-project', path: '/work/project' };

export interface MemorySessions {
  sessions: Manager;
  backing: MemoryBacking;
  now(): Date;
  /** Moves the clock forward (or back). */
  advance(ms: number): void;
  /** Stores a closed session as an earlier run left it (in this project unless `project` says another path). */
  stored(session: { id: string; title?: string; messages?: Message[]; project?: string }): Promise<void>;
  /** The snapshot text stored for `id` (undefined: none yet), to tell whether anything was written. */
  snapshotOf(id: string): string | undefined;
  /** True once `id` is stored closed and nobody holds it (what closing a session leaves). */
  closed(id: string): Promise<boolean>;
  /** The process holding `id` dies (SIGKILL): its lock is left dead, its events past the snapshot unsaved. */
  crash(id: string): void;
  /** Another process takes `id`'s lock (the session must be free); `kill9` leaves it dead, as a crash does. */
  hold(id: string, owner?: Partial<LockOwner>): { owner: LockOwner; release(): void; kill9(): void };
  /** Another process takes `id` over from under its holder, as after a freeze past the stale time: the holder is told. */
  takeOver(id: string, owner?: Partial<LockOwner>): { owner: LockOwner; release(): void; kill9(): void };
}

let pids = 900_000;

/** What another process does to a session in `backing`: takes its lock (taking it over from a holder with `takeOver`). */
export function otherProcess(backing: MemoryBacking, now: () => Date = () => new Date()) {
  const take = (id: string, owner: Partial<LockOwner>, takeOver: boolean) => {
    const session = backing.sessions.get(id);
    if (!session) throw new Error(`no session ${id} in the memory store`);
    const before = session.holder;
    if (before?.alive && !takeOver) throw new Error(`session ${id} is held already`);
    const holder: MemoryHolder = {
      owner: { pid: ++pids, host: hostname(), startedAt: now().toISOString(), ...owner },
      epoch: backing.nextEpoch(),
      alive: true,
      onLost: () => undefined,
    };
    session.holder = holder;
    if (takeOver) before?.onLost(new Error(`taken over by process ${holder.owner.pid} on ${holder.owner.host}`));
    return {
      owner: holder.owner,
      release: () => {
        if (session.holder === holder) delete session.holder;
      },
      kill9: () => void (holder.alive = false),
    };
  };
  return {
    /** Takes `id`'s lock (it must be free, or its holder dead); `kill9` leaves it dead, as a crash does. */
    hold: (id: string, owner: Partial<LockOwner> = {}) => take(id, owner, false),
    /** Takes `id` over from under its holder, as after a freeze past the stale time: the holder is told it lost it. */
    takeOver: (id: string, owner: Partial<LockOwner> = {}) => take(id, owner, true),
  };
}

export function memorySessions(options: { at?: Date } = {}): MemorySessions {
  let clock = (options.at ?? new Date('2026-11-22T14:30:00Z')).getTime();
  const now = (): Date => new Date(clock);
  const backing = new MemoryBacking();
  const store = new MemoryStore({ backing, project: PROJECT, now, redact: (text) => text, interpreter });
  const sessions = new Manager({
    store,
    home: '/nonexistent',
    redact: (text) => text,
    now,
    toolVersion: '0.1.0',
    readConfig: () => Promise.resolve({ user: {}, project: {} }),
    gitContext: () => Promise.resolve(undefined),
    searchRows,
  });
  const kept = (id: string) => {
    const session = backing.sessions.get(id);
    if (!session) throw new Error(`no session ${id} in the memory store`);
    return session;
  };
  return {
    sessions,
    backing,
    now,
    advance: (ms) => void (clock += ms),
    async stored({ id, title, messages = [], project = PROJECT.path }) {
      const s = blankSnapshot(id, project, now(), '0.1.0');
      s.title = title ?? null;
      if (title) s.titleSource = 'user';
      s.messages = messages;
      s.stats.messageCount = messages.length;
      s.status = 'closed';
      if (!(await sessions.adopt(s))) throw new Error(`session ID ${id} was issued already`);
    },
    snapshotOf: (id) => kept(id).snapshot?.text,
    closed: async (id) => (await sessions.inspect(id)).status === 'closed' && (await sessions.holder(id)) === undefined,
    crash(id) {
      const holder = kept(id).holder;
      if (holder) holder.alive = false;
      // A crashed process holds nothing: this one no longer counts the session as its own.
      const live = sessions.opened(id);
      if (live) forgetHeld(live as SessionImpl);
    },
    ...otherProcess(backing, now),
  };
}
