/**
 * What the memory store keeps, shared by every memory store opened on it (as a database is by
 * the PostgreSQL stores of many processes): sessions, the IDs ever issued, projects, input
 * history. Plain data, so that a test can do to it what another process would (take a lock, die
 * holding it, write an event of a newer build).
 */
import type { LockOwner } from '../../session/api/errors.js';
import type { IndexRow } from '../../session/api/listing.js';
import type { TrashedSession } from '../../session/format/store.js';
import type { ProjectInfo } from '../../session/api/data.js';

/** Who holds a session's lock: a store of this process, or a stand-in for another process. */
export interface MemoryHolder {
  owner: LockOwner;
  /** The fencing token of this taking of the lock (docs/design.md §12). */
  epoch: number;
  /** False once the holder's process is gone (its lock is then `dead`, free to take). */
  alive: boolean;
  /** Tells the holder it lost the lock (another process took the session over). */
  onLost(err: Error): void;
}

/** One session as kept: bytes and facts, never interpreted here. */
export interface MemorySession {
  id: string;
  project: ProjectInfo;
  createdAt: Date;
  /** The snapshot as the codec wrote it (the same text the other stores keep). */
  snapshot?: { text: string; at: Date };
  /** Each event as its journal line would be, oldest first. */
  events: { seq: number; line: string }[];
  /** The listing row the model recorded with the last snapshot (or a problem it found). */
  row?: IndexRow;
  holder?: MemoryHolder;
  trashed?: TrashedSession;
}

export class MemoryBacking {
  /** Every ID ever issued: never issued again, even once its session is gone. */
  readonly ids = new Set<string>();
  readonly sessions = new Map<string, MemorySession>();
  /** Every project a session was ever kept in, by real path. */
  readonly projects = new Map<string, ProjectInfo>();
  /** Input history by project key, oldest first. */
  readonly history = new Map<string, string[]>();
  private lastEpoch = 0;

  /** A higher fencing token than any before. */
  nextEpoch(): number {
    return ++this.lastEpoch;
  }
}
