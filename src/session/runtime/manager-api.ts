/**
 * The session manager (docs/design.md §2, §3): one project's sessions, plus lookups
 * across every project, and the options that open it.
 */
import type { KeptReport } from '../format/kept-report.js';
import type { CacheFix } from '../format/store.js';
import type { LockOwner } from '../api/errors.js';
import type { ConfigFiles, ProjectInfo, SessionSnapshot } from '../api/data.js';
import type { SessionReading, SessionSummary } from '../api/listing.js';
import type { Session } from '../api/session-api.js';
import type { LineHistory, SessionStore, TrashedSession } from '../format/store.js';
import type { SearchOptions, SearchResults } from '../api/search-data.js';

export interface ListOptions {
  /** Every project, not just this one. */
  all?: boolean;
  /** Case-insensitive filter on ID and title. */
  query?: string;
  /** Only sessions last used on this git branch (exact name). */
  branch?: string;
  /** List this project (its directory path) instead of the one opened; ignored with `all`. */
  project?: string;
  /**
   * Also sessions that hold no message (left by earlier builds, or still being started by
   * another process): hidden by default, since a session exists once it holds a message.
   */
  empty?: boolean;
  /**
   * At most this many rows, the newest: a screenful. The file store then reads only the head of
   * its index when it is current (docs/design.md §8), so the cost follows the rows shown.
   */
  limit?: number;
}

export interface OpenSessionsOptions {
  /** The data directory (e.g. `~/.chatkeep`). Created 0700 when missing. */
  home: string;
  /** The working directory whose project this is. */
  cwd: string;
  /** Replace secrets before writing (default true). */
  redact?: boolean;
  /** Environment whose secret-named values are redacted (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Recorded in snapshots (default: this package's version). */
  toolVersion?: string;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * How long a holder on another host may go without a heartbeat before its lock is taken over,
   * in ms (default 20000): proper-lockfile's `stale` in the data directory; on PostgreSQL behind a
   * transaction-pooling pooler, the lease's length.
   */
  lockStaleMs?: number;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/db`): keep the sessions on that server
   * (shared by every machine that points at it) instead of under `home`. The password never
   * appears in any output, error or row.
   */
  store?: string;
  /**
   * False: write nothing at all (no data directory, no session, no ID, no history line).
   * Sessions live in memory; config is still read; `resume`/`read` refuse.
   */
  persist?: boolean;
}

/** What `SessionManager.create` takes. */
export interface CreateOptions {
  /** The session's ID, chosen by the program (validated as every ID is: `isValidId`); default: a new one from the clock. */
  id?: string;
  title?: string;
  provider?: { name: string; model: string | null };
}

/** One project's sessions, plus lookups across every project. */
export interface SessionManager {
  /** The local data directory (config files; the sessions too, in the file store). */
  readonly home: string;
  readonly project: ProjectInfo;
  /** Where the sessions are kept (`kind`: file, postgres or memory; `location`: for people, never a password). */
  readonly store: Pick<SessionStore, 'kind' | 'location'>;
  /**
   * Creates a new session in this project, holding its lock. Nothing of it is kept until it holds
   * a message: closed without one, it is gone (a generated ID is not issued again; a chosen one is free again).
   * `id`: the program's own ID for it (a framework's `sessionId`), refused with `SessionExistsError`
   * when taken or ever issued in this store, `SessionOpenHereError` when this program holds it open.
   */
  create(options?: CreateOptions): Promise<Session>;
  /**
   * The session of exactly this ID (the program's own, as in `create({ id })`): resumed when it
   * exists, else created under it (with `options`). Refusals as for `resume` and `create`.
   */
  openOrCreate(id: string, options?: Omit<CreateOptions, 'id'>): Promise<Session>;
  /** The session of this ID that this program holds open (created or resumed here, not closed), if any. */
  opened(id: string): Session | undefined;
  /**
   * Resumes by ID or unique ID prefix, found in any project; takes the lock (SessionInUseError, exit 3,
   * naming the holder; SessionOpenHereError, exit 3, when this program holds it open already).
   */
  resume(idOrPrefix: string): Promise<Session>;
  /**
   * Retitles a stored session (any project) as `setTitle` does, taking its lock for the write and
   * releasing it; resolves to the title stored. Nothing else of it changes: where this program
   * runs (its git work tree) is not recorded, as it is on `resume`. Refusals as for `resume`.
   */
  rename(idOrPrefix: string, title: string): Promise<string | null>;
  /** Resolves an ID or unique prefix across projects, without opening it. */
  resolve(idOrPrefix: string): Promise<{ id: string; project: string; location: string }>;
  /** Reads a session (snapshot + journal) without taking its lock. A newer chatkeep's file is refused (`FutureSchemaError`). */
  read(idOrPrefix: string): Promise<SessionSnapshot>;
  /**
   * Reads a session without its lock and says what is wrong with its files, if anything: for
   * `sessions show`. Listings report the same facts (what it finds is recorded in the index).
   */
  inspect(idOrPrefix: string): Promise<SessionReading>;
  /**
   * The damaged parts of a session kept aside (its problem `recovered`), with what each still
   * holds: readable messages, those that could not be read, those the session lacks.
   */
  keptAside(idOrPrefix: string): Promise<KeptReport[]>;
  /**
   * Compares the listing caches of every session (or of one) with its snapshot and journal and
   * rewrites those that disagree: the caches lose (docs/design.md §8). Resolves to what it rewrote.
   */
  checkCaches(idOrPrefix?: string): Promise<CacheFix[]>;
  /** Removes the parts kept aside for good: the session's problem `recovered` ends. Resolves to how many. */
  forgetKeptAside(idOrPrefix: string): Promise<number>;
  /** Newest first. */
  list(options?: ListOptions): Promise<SessionSummary[]>;
  /**
   * Full-text search of message text (archived messages included), titles and IDs: the query is
   * literal and matched after Unicode folding (NFKC, case); sessions best first with their hit
   * counts and a snippet around the best hit. The file store brings its index up to date first.
   */
  search(query: string, options?: SearchOptions): Promise<SearchResults>;
  /** This project's most recently updated session, for `--continue`. */
  latest(): Promise<SessionSummary | undefined>;
  /** Who holds a session's lock, if anyone alive does. */
  holder(id: string): Promise<LockOwner | undefined>;
  /**
   * Starts a new session (new ID, this project, held) from another one's first `at` messages
   * (default: all), recording `parentId` and `forkPoint`; `from` is a live session (its state
   * in this process) or an ID or prefix read from disk. Written to disk before it resolves.
   * `archived: i`: from the conversation archived as `archived[i]` instead (its first `at`
   * messages, the summary it was read with); `uncompact: true`: from the conversation as it was
   * before the last compaction (what it archived, then what it kept live; `NothingToUncompactError`
   * when there is none). `forkPoint` is how many messages it copied.
   */
  fork(from: Session | string, options?: { at?: number; title?: string; archived?: number; uncompact?: boolean }): Promise<Session>;
  /**
   * Adds a session from outside (the snapshot in a checked export: `chatkeep sessions import`)
   * to this project, closed, redacted as `append` redacts. It keeps its ID unless that ID was
   * ever issued in this data directory: then it gets a new one and records the old as
   * `importedFrom`. Nothing that exists is overwritten. Written to disk before it resolves.
   */
  importSession(snapshot: SessionSnapshot): Promise<ImportResult>;
  /**
   * Moves a session (ID or unique prefix, any project) to the trash, whole and restorable; it
   * no longer lists or resolves. Refused (`SessionInUseError`, exit 3) while a live process
   * holds it; the move happens under the session's lock guard, so no writer starts meanwhile.
   */
  trash(idOrPrefix: string): Promise<TrashedSession>;
  /**
   * Brings a session (ID or unique prefix) back from the trash to its project, resumable as
   * before under the same ID. Refused (`UserError`) when that ID is in use there now: nothing
   * is overwritten.
   */
  restore(idOrPrefix: string): Promise<{ id: string; project: string }>;
  /** What is in the trash, most recently trashed first. */
  listTrash(): Promise<TrashedSession[]>;
  /**
   * Deletes for good what was trashed before `olderThan` (everything without it): the only
   * deletion there is. Resolves to the IDs deleted; an ID deleted is never issued again.
   */
  emptyTrash(options?: { olderThan?: Date }): Promise<string[]>;
  /** This project's input history (`projects/<slug>/history`, mode 0600, redacted), oldest first. */
  readonly history: LineHistory;
  /** Raw config objects: `<home>/config.json` (user) and `projects/<slug>/config.json` (project); `{}` when missing. A corrupt file is a UserError naming it. */
  readConfig(): Promise<ConfigFiles>;
  /**
   * Stores a whole session under its own ID, closed (a copy from another store, an import):
   * false, writing nothing, when that ID is taken or was ever issued in this store.
   */
  adopt(snapshot: SessionSnapshot): Promise<boolean>;
  /**
   * Stores a session read from another tool under its own ID, redacted as `append` redacts:
   * new (false, writing nothing, when that ID is taken or was ever issued), or with `replace`
   * over the closed session of that ID (a source that grew; refused while it is held).
   */
  storeImported(snapshot: SessionSnapshot, options?: { replace?: boolean }): Promise<boolean>;
  /** Lets go of what the store holds open (a server's connections); sessions must be closed first. */
  close(): Promise<void>;
}

/** What `SessionManager.importSession` did. */
export interface ImportResult {
  /** The ID the session has here. */
  id: string;
  /** Set when the session's own ID was taken here: that ID (the session got `id` instead). */
  importedFrom?: string;
}
