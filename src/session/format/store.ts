/**
 * The store seam (docs/design.md §7): everything the session model needs from where sessions live.
 * The model (`src/session/`) talks only to this interface; `src/store/file/` (the data
 * directory, the default), `src/store/postgres/` and `src/store/memory/` implement it. A store
 * keeps bytes and facts durable and exclusive; what the events *mean* is the model's (`events.ts`,
 * `apply-event.ts`, run by the manager through `replay.ts`), so a store never interprets a
 * conversation: what it keeps beside one (listing rows, a search index) it gets from the model's
 * `Interpreter`.
 */
import type { LockOwner } from '../api/errors.js';
import type { IndexRow, SessionReading } from '../api/listing.js';
import type { Salvage } from './salvage.js';
import type { FutureEvent, ProjectInfo, SessionSnapshot, SessionWhere } from '../api/data.js';
import type { SearchResults } from '../api/search-data.js';

/** The events a store keeps (their payloads and meaning: events.ts, apply-event.ts). */
export { EVENT_TYPES, type SessionEvent, type SessionEventType } from '../model/events.js';
import type { SessionEvent } from '../model/events.js';

/** Who holds a session's writer lock, as seen from outside. */
export type LockState =
  | { state: 'free' }
  | { state: 'held'; owner: LockOwner | undefined }
  /** Left by a holder that is gone (its pid is dead on this host, or stale from another host): free to take. */
  | { state: 'dead'; owner: LockOwner | undefined; sameHost: boolean };

/** A session's writer lock, held by this process. */
export interface WriterLock {
  readonly owner: LockOwner;
  /**
   * The fencing token taken with the lock (docs/design.md §12): each taking of a session's lock gets a
   * higher one, and a store refuses a write made under a lower one with `LockSupersededError`.
   */
  readonly epoch?: number;
  /** False once another process has the lock (checked before every write: a thawed process must not write). */
  stillHeld(): Promise<boolean>;
  /** Lets the lock go (idempotent). */
  release(): Promise<void>;
}

/** The durable event log of a session whose lock this process holds. */
export interface EventLog {
  /**
   * Appends one event. With `sync`, resolves only once it is durable (fdatasync; COMMIT):
   * the point from which a message counts as sent. Without it (reply deltas), it may be batched.
   */
  append(event: SessionEvent, sync: boolean): Promise<void>;
  /**
   * Forgets events up to and including `seq`: a snapshot holding them is durable. After a closing
   * snapshot a store may keep them a while (the file store leaves a small journal for its next
   * snapshot to empty): every reader skips events at or below the snapshot's `journalSeq`.
   */
  compact(seq: number): Promise<void>;
  close(): Promise<void>;
}

/** What a store holds of one session, uninterpreted. */
export interface StoredSession {
  /** The snapshot, decoded and migrated (undefined: none yet, or damaged). */
  snapshot: SessionSnapshot | undefined;
  /** Every readable event, oldest first (those at or below the snapshot's `journalSeq` included). */
  events: SessionEvent[];
  /** Events of types this build does not know, oldest first, kept as stored (not damage). */
  futureEvents?: FutureEvent[];
  /** Damage found, one short phrase per part (`session.json: not JSON (…)`), for listings and `show`. */
  damage: string[];
  /** Sentences for the person resuming: where each damaged part went and what is left. */
  notices: string[];
  /** The snapshot was damaged (the session is rebuilt from its events). */
  snapshotDamaged: boolean;
  /** What was read of a damaged snapshot, message by message (salvage.ts): the session is rebuilt from it and its events. */
  salvage?: Salvage;
  /** When the store first saw the session, if it knows (for a session with no snapshot and no dated ID). */
  createdAt?: Date;
  /** Damaged parts moved aside, before or now, and still kept (file paths, quarantine rows): see kept-aside.ts. */
  aside?: string[];
}

/** One damaged part of a session kept aside: where, what it was, and its text as it was found. */
export interface KeptPart {
  where: string;
  part: 'snapshot' | 'journal';
  text: string;
}

export interface LoadOptions {
  now: Date;
  /** Move damaged parts aside (under the lock only); false reads change nothing. */
  quarantine: boolean;
  /** Lock-free read while a holder may be saving: read again until snapshot and events belong together. */
  stable?: boolean;
}

/** One session's stored parts, as a store reads them (its lock, and snapshot + events). */
export interface SessionSource {
  inspectLock(): Promise<LockState>;
  load(options: LoadOptions): Promise<StoredSession>;
}

/** One lock-free reading of a session, as `inspect` gives it and as its listing row records it. */
export interface Reading {
  reading: SessionReading;
  row: IndexRow;
  /** Why nothing could be read (a newer version, an I/O error), for callers that refuse then. */
  error?: unknown;
}

/**
 * What the model makes of a stored session (`src/session/runtime/interpreter.ts`), handed to a store when
 * it is opened, for what the store keeps beside its sessions: listing rows, a search index, trash
 * entries. A store reads the parts; the meaning of the events is the model's alone.
 */
export interface Interpreter {
  /** One lock-free reading of a session from its parts (`stable`: read again until snapshot and events belong together). */
  read(source: SessionSource, id: string, projectPath: string, options: { now: Date; stable: boolean }): Promise<Reading>;
  /** A listing row brought up to date with the events past its snapshot. */
  rowWithEvents(row: IndexRow, events: readonly SessionEvent[]): Promise<IndexRow>;
}

/** Where a session was found. */
export interface Located {
  id: string;
  project: ProjectInfo;
}

/**
 * A store's trash (docs/design.md §7), one part per store as `history` is: IDs are exact here (the manager
 * resolves prefixes). Only `empty` deletes; the IDs stay reserved.
 */
export interface SessionTrash {
  /** Moves a session to the trash (see `SessionManager.trash`): refused while a live process holds it. */
  put(id: string): Promise<TrashedSession>;
  /** Puts a trashed session back where it was; refused when its ID is taken there now. */
  restore(id: string): Promise<Located>;
  /** Newest first. */
  list(): Promise<TrashedSession[]>;
  /** Deletes for good what was trashed before `olderThan` (all without it); the IDs stay reserved. */
  empty(olderThan?: Date): Promise<string[]>;
}

/** One session in the trash. */
export interface TrashedSession {
  id: string;
  project: string;
  title: string | null;
  trashedAt: Date;
  messageCount: number;
  /** When it was last updated before it went to the trash. */
  updatedAt?: Date;
  /** Set on a fork: the session it was forked from. */
  parentId?: string;
  /** Set on a fork: how many of the parent's messages it started with (absent in entries of earlier builds). */
  forkPoint?: number;
}

/**
 * The core every store provides (docs/design.md §7): IDs, the writer lock, the event log,
 * snapshots, reading, finding and listing. What a store may leave out is below
 * (`StoreCapabilities`); the manager supplies a default for each (`session/runtime/store-defaults.ts`).
 */
export interface StoreCore {
  readonly kind: 'file' | 'postgres' | 'memory';
  /** Where the sessions are, for people: the data directory, or the URL without its password. */
  readonly location: string;
  /** The project of the working directory the store was opened for (recorded as needed). */
  readonly project: ProjectInfo;

  /** A new ID from `at` (`session-YYYYMMDD-HHmmss`, `-2`… on a clash), never issued before; the session exists from now on. */
  reserveId(at: Date, project: ProjectInfo): Promise<string>;
  /**
   * Reserves exactly `id`, chosen by the program (`create({ id })`), as `reserveId` reserves a new
   * one; false, creating nothing, when that ID is taken or was ever issued here (IDs are never reused).
   */
  claimId(id: string, at: Date, project: ProjectInfo): Promise<boolean>;
  /** Takes the writer lock; throws `SessionInUseError` (exit 3) naming a live holder. `onLost` fires if it is lost later. */
  lock(id: string, onLost: (err: Error) => void): Promise<WriterLock>;
  inspectLock(id: string): Promise<LockState>;
  /** Reads the snapshot and events; throws `FutureSchemaError` for a newer schema (touching nothing). */
  load(id: string, options: LoadOptions): Promise<StoredSession>;
  /** Opens the event log of a session whose lock is held. */
  openLog(id: string, lock: WriterLock): Promise<EventLog>;
  /**
   * Removes a session that never held a message, whose lock this process holds, and lets the lock
   * go: nothing of it is kept (not listed, not found by ID) but its ID, which is never issued
   * again (docs/design.md §3). A store refuses, keeping everything, if a message event is stored after all.
   * `freeId`: the ID goes too (one the program chose, `create({ id })`: it may open it again).
   */
  discard(id: string, lock: WriterLock, options?: { freeId?: boolean }): Promise<void>;
  /** Writes a snapshot durably and atomically; resolves to the bytes written. */
  writeSnapshot(id: string, snapshot: SessionSnapshot, lock: WriterLock): Promise<number>;
  /** The snapshot in place (an earlier run's), if any. */
  snapshotInfo(id: string): Promise<{ at: Date; bytes: number } | undefined>;

  /**
   * Stores a whole session under its own ID, in the project of its `project` path (import, a copy
   * between stores). Resolves false, writing nothing, when that ID is taken or was ever issued here.
   */
  adopt(snapshot: SessionSnapshot): Promise<boolean>;

  /**
   * Finds a session by ID or unique ID prefix, in this project first, then in any. The manager has
   * validated it (`assertValidId`): a store builds paths and queries from IDs it is given as they are.
   */
  locate(idOrPrefix: string): Promise<Located>;
  /** Every project with sessions (this one first). */
  projects(): Promise<ProjectInfo[]>;
  /**
   * The listing rows of these projects, newest first. With `newest`, a store may return only
   * the newest that many rows of each project (never fewer when there are that many); every row is
   * always a correct answer. `shown` (at least `newest` when given): how many of each project's
   * newest rows the caller shows; a store with caches checks those against what they cache.
   */
  list(projects: readonly ProjectInfo[], options?: { newest?: number; shown?: number }): Promise<IndexRow[]>;

  /** Lets go of what the store holds open (a connection pool). */
  close(): Promise<void>;
}

/**
 * A listing kept beside the snapshots (a cache in the file store, columns on PostgreSQL), which
 * the model keeps up to date. A store without one works its rows out in `list`.
 */
export interface ListingCache {
  /** Records the listing row of the snapshot just written (a cache in the file store; failures only slow a listing). */
  recordRow(row: IndexRow, project: ProjectInfo): Promise<void>;
  /** Drops what is kept beside a session about its snapshot: it is about to change without a new one. */
  forgetRow(id: string): Promise<void>;
  /** A lock-free reading found what the caches do not say (damage): listings must say it too. */
  noteProblem(row: IndexRow, project: ProjectInfo): Promise<void>;
}

/** One cache rewritten by `checkCaches`: which, of which session, what it said and what the session holds. */
export interface CacheFix {
  id: string;
  project: string;
  /** `meta`: the file beside the snapshot; `index`: the session's row in the project's listing. */
  cache: 'meta' | 'index';
  was: { title: string | null; messageCount: number; updatedAt: number };
  now: { title: string | null; messageCount: number; updatedAt: number };
}

/** A project's input history, oldest first (redacted before it is written): `load` gives the last `HISTORY_LINES`. */
export interface LineHistory {
  load(): Promise<string[]>;
  append(line: string): Promise<void>;
}

/**
 * What a store may provide beyond its core; for each one it leaves out the manager has a default
 * (`session/runtime/store-defaults.ts`): no cache, the generic search over `list` and `load`, no
 * trash (trashing is refused, saying so), nothing kept aside, `where` its location, `projectAt`
 * from `projects`, and an input history kept for this process only.
 */
export interface StoreCapabilities extends Partial<ListingCache> {
  /**
   * Full-text search of these projects' sessions (docs/design.md §18): the query literal, matched on folded
   * text (src/search/fold.ts); scored, ranked and snippeted by src/search/ so that every store
   * gives the same output. The file store brings its index up to date from the listing first
   * (src/store/file/search/search-index.ts). PostgreSQL narrows the candidates with its own index (which
   * must not drop a literal substring match, e.g. `ession` in `session`), then hands their
   * messages to `searchMessages` (src/search/search-messages.ts), which counts and ranks.
   */
  searchSessions?(query: string, projects: readonly ProjectInfo[], options: { limit?: number; snippets?: boolean }): Promise<SearchResults>;
  /** Where trashed sessions wait to be restored or deleted. */
  readonly trash?: SessionTrash;
  /** The project's input history. */
  readonly history?: LineHistory;
  /** Damaged parts of a session kept aside (kept-aside.ts), for `sessions doctor`: a store that keeps none has none. */
  keptAside?: {
    read(id: string): Promise<KeptPart[]>;
    /** Removes them for good; resolves to how many there were. */
    forget(id: string): Promise<number>;
  };
  /**
   * Compares the caches kept beside each session of these projects (or of session `only`) with
   * its snapshot and journal, rewrites those that disagree, and says what it rewrote: for
   * `sessions doctor`. A store without caches has nothing to check.
   */
  checkCaches?(projects: readonly ProjectInfo[], only?: string): Promise<CacheFix[]>;
  /** Where one session is kept, for `/status`: a location for people, and its files in the file store. */
  where?(id: string): SessionWhere;
  /** The project whose working directory is `path` (real path), if any session was ever kept there. */
  projectAt?(path: string): Promise<ProjectInfo | undefined>;
}

/**
 * The generic search (src/search/generic-search.ts), handed to the model by whoever opens the store
 * (the search is a layer above the session model): the rows' sessions, each read by `read`.
 */
export type SearchRows = (
  query: string,
  rows: readonly IndexRow[],
  read: (row: IndexRow) => Promise<SessionSnapshot | undefined>,
  limit?: number,
) => Promise<SearchResults>;

/** A store: its core and what it provides beyond it. */
export type SessionStore = StoreCore & StoreCapabilities;

/** How many input history lines a store's `history.load()` gives (the latest). */
export const HISTORY_LINES = 1000;
