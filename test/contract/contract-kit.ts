/** What the contract's cases share: the backing's shape, the clock, and how sessions are made. */
import { blankSnapshot } from '../../src/session/format/blank.js';
import { Manager } from '../../src/session/runtime/manager.js';
import { searchRows } from '../../src/search/generic-search.js';
import { rowFromSnapshot } from '../../src/session/format/index-row.js';
import type { SessionEvent, SessionStore } from '../../src/session/format/store.js';
import type { WholeStore } from '../../src/session/runtime/store-defaults.js';
import type { SessionSnapshot } from '../../src/session/api/data.js';

export interface OpenOptions {
  redact?: (text: string) => string;
  /** The store's clock (the trash records when). */
  now?: () => Date;
}

/** One empty backing (a database, a data directory) that stores are opened on. */
export interface StoreBacking {
  /** Opens a store on this backing for `cwd` (a second store is what another process sees). */
  open(cwd: string, options?: OpenOptions): Promise<SessionStore>;
  /** A child process that takes `id`'s lock and keeps it; resolves once it holds it. */
  holdInChild(id: string, cwd: string): Promise<{ pid: number; kill9(): Promise<void> }>;
  /** Removes a session entirely, as deleting it by hand or emptying the trash would. */
  removeSession(id: string): Promise<void>;
  /** Stores an event as a newer chatkeep would (a journal line, a row), `payload` as its own JSON text. */
  writeNewerEvent(id: string, event: { seq: number; ts: string; type: string; payload: string }): Promise<void>;
  /**
   * Takes `id`'s lock from under its holder, as another host does once the holder has been frozen
   * past its stale time or lease (a new epoch); the holder's process goes on believing it holds it.
   */
  supersede(id: string): Promise<void>;
  dispose(): Promise<void>;
}

export const AT = new Date('2026-11-23T10:20:30.000Z');

/** The session manager over `store`, as `openSessions` builds it (its clock at `at`). */
export function managerOn(store: SessionStore, at: () => Date = () => AT): Manager {
  return new Manager({
    store,
    home: '/nonexistent',
    redact: (text) => text,
    now: at,
    toolVersion: 'test',
    readConfig: () => Promise.resolve({ user: {}, project: {} }),
    gitContext: () => Promise.resolve(undefined),
    searchRows,
  });
}

export function event(seq: number, type: SessionEvent['type'], payload: Record<string, unknown>): SessionEvent {
  return { seq, ts: new Date(AT.getTime() + seq * 1000).toISOString(), type, payload };
}

export function snapshotOf(id: string, project: string, journalSeq: number, texts: string[]): SessionSnapshot {
  const s = blankSnapshot(id, project, AT, 'test');
  s.messages = texts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, timestamp: new Date(AT.getTime() + i * 1000) }));
  s.stats.messageCount = texts.length;
  s.journalSeq = journalSeq;
  s.title = 'a title';
  s.status = 'closed';
  return s;
}

/** What a case gets from the suite: stores opened on this test's backing (closed after it) and its directories. */
export interface Harness {
  /** A store opened on this test's backing, as the model uses it (`withDefaults`). */
  open(dir?: string, options?: OpenOptions): Promise<WholeStore>;
  /** Another process's store, which has found session `id` as the model does before using it (locate first). */
  openOn(id: string, dir?: string): Promise<WholeStore>;
  backing(): StoreBacking;
  cwd(): string;
  otherCwd(): string;
}

/** A message as the model journals it. */
export function messageEvent(seq: number, role: 'user' | 'assistant', content: string): SessionEvent {
  return event(seq, 'message', { message: { role, content, timestamp: new Date(AT.getTime() + seq * 1000).toISOString() } });
}

/**
 * A closed session reserved at `at` whose snapshot holds `texts` (`edit` changes the snapshot
 * before it is written), saved as the model saves one: under its lock.
 */
export async function savedSession(
  store: SessionStore,
  at: Date,
  texts: string[],
  edit: (s: SessionSnapshot) => void = () => undefined,
): Promise<SessionSnapshot> {
  const id = await store.reserveId(at, store.project);
  const lock = await store.lock(id, () => undefined);
  const snapshot = snapshotOf(id, store.project.path, 0, texts);
  snapshot.createdAt = at;
  snapshot.updatedAt = at;
  edit(snapshot);
  await store.writeSnapshot(id, snapshot, lock);
  await store.recordRow?.(rowFromSnapshot(snapshot, 'closed'), store.project);
  await lock.release();
  return snapshot;
}
