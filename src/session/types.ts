/**
 * The session library's data model and public interfaces (DESIGN §1 library, §3 storage).
 * Everything here is terminal-free: the REPL and other embedders build on it.
 */
import type { SessionStore } from './store.js';
import type { LockOwner } from './errors.js';
import type { TrashedSession } from './store.js';
import type { SearchOptions, SearchResults } from '../search/types.js';

export type Role = 'user' | 'assistant' | 'tool';

/** Token counts reported by a provider for one reply. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** A tool call made by the assistant. `arguments` is a JSON *string* (superjson refuses keys such as `__proto__`). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation, as stored. */
export interface Message {
  role: Role;
  content: string;
  timestamp: Date;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  usage?: Usage;
  /** The reply was cut short (Ctrl-C, a stream cut, a crash mid-stream); `content` holds what arrived. */
  interrupted?: boolean;
  /** An answer replaced by asking again (`/retry`): kept in the transcript, never sent to the model again. */
  superseded?: boolean;
  /** The model that wrote an assistant reply, when known (prices tokens per model). */
  model?: string;
}

/** What `append()` takes: a message whose timestamp defaults to now. */
export type NewMessage = Omit<Message, 'timestamp'> & { timestamp?: Date };

export type SessionStatus = 'open' | 'closed' | 'interrupted';

/** How a title came about: from the first user message (`auto`), or chosen (`user`). */
export type TitleSource = 'auto' | 'user';

/** Where a configuration value came from. */
export type ConfigSource = 'flag' | 'env' | 'project' | 'user' | 'default' | 'session' | 'command';

/** The assistant a session talks to, and where that choice came from (absent in older files). */
export interface ProviderRecord {
  name: string;
  model: string | null;
  /** `command`: switched in the chat (`/model`, `/provider`). */
  source?: ConfigSource;
}

/** One effective configuration value and its source. */
export interface ConfigValue {
  value: string | number | boolean | null;
  source: ConfigSource;
}

/** The project (working directory) a session belongs to. */
export interface ProjectInfo {
  /**
   * What the store keys the project by: in the file store its directory name under
   * `projects/`; in PostgreSQL the normalized `origin` remote (else host and path).
   */
  key: string;
  /** The real absolute path of the working directory. */
  path: string;
}

/** A segment of conversation cleared by `/reset`, kept inside the session. */
export interface ArchivedSegment {
  archivedAt: Date;
  messages: Message[];
  summary: string | null;
  stats: SessionStats;
}

export interface SessionStats {
  messageCount: number;
  inputTokens: number;
  outputTokens: number;
  /** The tokens of replies whose model is known, per model (absent until there is one). */
  byModel?: ModelUsage[];
}

/** Token totals of one model's replies. */
export interface ModelUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** The system prompt is not a message: only its path and hash are stored. */
export interface SystemPromptRef {
  path: string;
  sha256: string;
  /** Where the choice came from (`flag`, `user`/`project` config, `command` for `/system`). */
  source?: ConfigSource;
}

/** The git work tree a session was last used in (recorded at start and resume). */
export interface GitContext {
  /** The work tree's top directory. */
  root: string;
  /** The checked-out branch, or null when HEAD is detached. */
  branch: string | null;
  /** HEAD's commit, or null on a branch with no commit yet. */
  head: string | null;
}

/** The snapshot file (`session.json`), decoded. DESIGN §3. */
export interface SessionSnapshot {
  format: 'chatkeep.session';
  schemaVersion: number;
  id: string;
  title: string | null;
  /**
   * How the title came about: `auto`, from the first user message (replaced by any title chosen);
   * `user`, chosen (`/title`, `/save TITLE`, a rename). Absent in older files, whose titles were chosen.
   */
  titleSource?: TitleSource;
  createdAt: Date;
  updatedAt: Date;
  status: SessionStatus;
  /** The project's real path. */
  project: string;
  host: string;
  pid: number;
  toolVersion: string;
  provider: ProviderRecord;
  systemPrompt: SystemPromptRef | null;
  config: Record<string, ConfigValue>;
  /** A line typed but never sent when the last run ended; absent when there is none. */
  draft?: string;
  /** What wrote this snapshot (absent in older files). */
  savedBy?: SaveTrigger;
  messages: Message[];
  summary: string | null;
  archived: ArchivedSegment[];
  stats: SessionStats;
  /** The last journal `seq` this snapshot contains. */
  journalSeq: number;
  /** Set on a fork: the session it was forked from. */
  parentId?: string;
  /** Set on a fork: how many of the parent's messages it started with. */
  forkPoint?: number;
  /**
   * Set on an import: from a chatkeep export whose ID was taken here already, the ID it was
   * exported under (it got a new one); from another tool (`sessions import --from`), where it came from.
   */
  importedFrom?: string | ImportSource;
  /** Where it was last used, when that was a git work tree (absent in older files). */
  git?: GitContext;
  /** Events of types this build does not know (a newer chatkeep wrote them), kept as stored; absent when none. */
  futureEvents?: FutureEvent[];
}

/**
 * An event of a type this build does not know: a newer chatkeep wrote it. Replay skips it; it
 * is kept byte for byte (in the snapshot once one is written), so the chatkeep that knows its
 * type finds it again, in the place `seq` gives it among the session's events.
 */
export interface FutureEvent {
  seq: number;
  /** ISO time of the event. */
  ts: string;
  type: string;
  /** The event exactly as stored: its journal line, or its database row as that line (`{seq, ts, type, payload}`). */
  line: string;
}

/** Where a session imported from another tool (`chatkeep sessions import --from`) came from. */
export interface ImportSource {
  /** `claude`, `codex` or `gemini`. */
  tool: string;
  /** The conversation's ID in that tool. */
  id: string;
  /** The file it was read from. */
  path: string;
  /** How many of the file's lines the import read: a file with more has grown since. */
  lines: number;
  /** How many messages the import wrote: a session with another count was continued here. */
  messages: number;
  /**
   * Source lines chatkeep has no place for (thinking, attachments, the tool's own bookkeeping),
   * as they were (redacted), each after the first `at` messages.
   */
  kept?: KeptLine[];
}

/** One source line kept uninterpreted, after the first `at` messages. */
export interface KeptLine {
  at: number;
  line: string;
}

/**
 * What is wrong with a session's files, when something is: the same facts in listings and in
 * `read`/`inspect` (one reading of the files). `damaged`: a file does not parse or validate
 * (resuming moves it aside, kept, and continues with what is readable); `newer-version`: a
 * newer chatkeep wrote it (left untouched; upgrade to open it); `unreadable`: the files could
 * not be read at all (permissions, I/O).
 */
export interface SessionProblem {
  kind: 'damaged' | 'newer-version' | 'unreadable';
  /** What is wrong, in a few words (`session.json: not JSON (Unexpected end of JSON input)`). */
  detail: string;
  /** `newer-version`: the least chatkeep version that reads it, when the file recorded its writer's. */
  needs?: string;
}

/** A session's files as read without its lock: what `SessionManager.inspect` returns. */
export interface SessionReading {
  id: string;
  /** The project's real path. */
  project: string;
  /** What the files hold (the readable part, when damaged); undefined when they cannot be read (`problem` says why). */
  snapshot?: SessionSnapshot;
  status: SessionStatus;
  problem?: SessionProblem;
}

/** One row of a listing (`/sessions`, `chatkeep sessions list --json`). */
export interface SessionSummary {
  id: string;
  /** The title as stored (null: none). */
  title: string | null;
  /** How the stored title came about (absent without one). */
  titleSource?: TitleSource;
  /**
   * A session stored without a title by an earlier build: the automatic title its first user
   * message gives, derived when listed (nothing is rewritten). Listings show it where `title` is null.
   */
  derivedTitle?: string;
  createdAt: Date;
  updatedAt: Date;
  messageCount: number;
  status: SessionStatus;
  /** The project's real path. */
  project: string;
  provider?: { name: string; model: string | null };
  usage?: { inputTokens: number; outputTokens: number };
  /** Set when the files are damaged, from a newer chatkeep, or unreadable; `messageCount` then counts what is readable (0 when nothing is). */
  problem?: SessionProblem;
  /** The part of `usage` whose model is known, per model (for estimating cost). */
  usageByModel?: ModelUsage[];
  /** The git branch it was last used on, when known. */
  branch?: string;
  /** Set on a fork: the session it was forked from. */
  parentId?: string;
  /** Set on a fork: how many of the parent's messages it started with. */
  forkPoint?: number;
  /** On a shared server: the role it belongs to, when another role's session was shared with the one listing. */
  owner?: string;
}

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
}

export interface SaveResult {
  /** False when nothing had changed since the last snapshot (and `force` was not set). */
  saved: boolean;
  id: string;
  messageCount: number;
  /** Where the snapshot is kept, for people: the path of `session.json`, or the server (no password) and ID. */
  location: string;
  /**
   * True while the session holds no message: nothing is written (a session exists once it holds
   * a message), and closing it keeps nothing, though its ID is never issued again.
   */
  empty?: boolean;
}

/** What resuming found, for the user to be told. */
export interface ResumeReport {
  /** Messages recovered from the journal past the snapshot (a crash, `kill -9`). */
  recoveredMessages: number;
  /** The session had been left open with no live holder. */
  wasInterrupted: boolean;
  /** One line per damaged file quarantined as `*.corrupt-<time>`, saying what was recovered. */
  notices: string[];
  /** The session lives in another project than the one opened (its real path). */
  otherProject?: string;
  /**
   * The git work tree the session was last used in, as recorded before this run (this run's
   * own context is then recorded in the background, see `Session.git`).
   */
  git?: GitContext;
  /** Set when the session was just made by `fork`: the session it copies and at which message. */
  forkedFrom?: { id: string; at: number };
}

/** What a finished reply adds to its text. */
export interface ReplyExtra {
  usage?: Usage;
  interrupted?: boolean;
  toolCalls?: ToolCall[];
  /** The model that wrote it. */
  model?: string;
}

/** A live reply being streamed into the session: partial text is journaled as it arrives. */
export interface ReplyWriter {
  /**
   * Adds text and journals it (no fsync: a crash of this process keeps it). Text is journaled
   * up to a point where no secret can be split (the end of the last whole word), so the
   * promise resolves with how many characters of the reply so far are on disk: show only
   * that much, and the screen never holds what a crash would lose.
   */
  push(text: string): Promise<number>;
  /** The reply's text so far, as pushed (the reply owns it: callers slice what to show from it). */
  readonly text: string;
  /** Completes the reply as one assistant message, fdatasync'ed. */
  finish(extra?: ReplyExtra): Promise<Message>;
}

/** What `Session.retake()` found. */
export type RetakeResult =
  | { retaken: true }
  /** `holder`: the process that holds it now; undefined when it was let go but changed meanwhile. */
  | { retaken: false; holder?: LockOwner };

/** Where a session is kept (`Session.where`). */
export interface SessionWhere {
  location: string;
  /** The file store's session directory, `session.json` and `journal.jsonl`. */
  files?: { dir: string; snapshot: string; journal: string };
}

/** A session held open by this process (it holds the cross-process lock). */
export interface Session {
  readonly id: string;
  readonly project: ProjectInfo;
  /** Where it is kept: a location for people (never a password), and in the file store its files. */
  readonly where: SessionWhere;
  readonly messages: readonly Message[];
  readonly title: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly provider: Readonly<ProviderRecord>;
  readonly stats: Readonly<SessionStats>;
  /** A line typed but not sent when the session was last left (null: none). */
  readonly draft: string | null;
  /** The system prompt's recorded path and hash (null: none). */
  readonly systemPrompt: Readonly<SystemPromptRef> | null;
  readonly archived: readonly ArchivedSegment[];
  /** What `/compact` made of the messages it archived (null: none); models get it ahead of `messages`. */
  readonly summary: string | null;
  /** True once the lock was lost: nothing is written until it is held again. */
  readonly readOnly: boolean;
  /** True when something changed since the last snapshot. */
  readonly dirty: boolean;
  /** What resume found (zeroes for a new session). */
  readonly resumeReport: ResumeReport;
  /** The git work tree it was last used in (this run's is recorded shortly after start). */
  readonly git: GitContext | undefined;

  /** Appends one message; durable (journaled and fdatasync'ed) once it resolves. Secrets are redacted first. */
  append(message: NewMessage): Promise<Message>;
  /** Starts a streamed assistant reply. */
  beginReply(): ReplyWriter;
  /**
   * Sets the title, chosen (`titleSource: 'user'`): redacted, on one line, capped at
   * `MAX_TITLE_LENGTH` characters (cut with `…`); empty clears it. Until a title is chosen, the
   * first user message gives one (`auto`), which never replaces a chosen one.
   */
  setTitle(title: string | null): Promise<void>;
  /** How the title came about (undefined: no title yet, or one from an older file, which was chosen). */
  readonly titleSource: TitleSource | undefined;
  setProvider(provider: { name: string; model: string | null }, source?: ConfigSource): Promise<void>;
  setConfig(key: string, value: ConfigValue): Promise<void>;
  setSystemPrompt(ref: SystemPromptRef | null, source?: ConfigSource): Promise<void>;
  /** Keeps (journaled, redacted) or clears (null, '') the unsent line, for the next resume to put back. */
  setDraft(text: string | null): Promise<void>;
  /**
   * Marks the answers to the last user message superseded (kept, no longer sent to the model),
   * so that message can be asked again. Undefined when there is no user message.
   */
  supersedeAnswers(): Promise<{ question: Message; superseded: number } | undefined>;
  /** Writes a snapshot (atomic) and truncates the journal. With `ifChanged`, does nothing when clean. */
  save(options?: { title?: string; ifChanged?: boolean; trigger?: SaveTrigger }): Promise<SaveResult>;
  /** Where the session lives and how current its snapshot is (for `/status`). */
  status(): Promise<SessionStatusReport>;
  /** Saves, then archives the live conversation inside the session and clears it; the ID stays. */
  reset(): Promise<void>;
  /**
   * Replaces all but the last `keep` messages with `summary` (redacted first): they are archived
   * inside the session as `reset()` archives them, and the summary stands for them from now on.
   * One journaled event, then a snapshot: a crash leaves the conversation before or after it.
   * `usage` and `model`: what the summary cost, counted with the archived segment.
   */
  compact(summary: string, keep: number, extra?: { usage?: Usage; model?: string }): Promise<void>;
  /** Saves, marks the session closed, releases the lock. Idempotent. */
  close(): Promise<SaveResult>;
  /** Runs `fn` under the session's conversation mutex (the one every write takes). */
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * After the lock was lost (`readOnly`): takes it back if its other holder is gone and wrote
   * nothing meanwhile, and carries on. Otherwise says who holds it now (when someone does);
   * what this process has beyond it then belongs in a fork (`SessionManager.fork`).
   */
  retake(): Promise<RetakeResult>;
  /** A copy of the session as this process holds it (what a snapshot written now would contain). */
  copyState(): SessionSnapshot;
  /** Warnings that arise between calls (lock compromised, autosave failure). */
  onWarning(listener: (message: string) => void): () => void;
}

/** What wrote a snapshot: a save on request, the autosave timer, leaving, `/reset`, recovery on resume. */
export type SaveTrigger = 'save' | 'autosave' | 'close' | 'reset' | 'recovery';

/** A session's storage facts, as `Session.status()` reports them. */
export interface SessionStatusReport {
  id: string;
  /** `file`: the data directory (paths below); `postgres`: a server; `memory`: nothing is written (`persist: false`). */
  store: 'file' | 'postgres' | 'memory';
  /** Where the session is kept, for people: its snapshot file, or the server without its password (null in memory). */
  location: string | null;
  /** In the file store: the session's directory, `session.json` and `journal.jsonl` (null otherwise). */
  dir: string | null;
  snapshotPath: string | null;
  journalPath: string | null;
  /** The cross-process lock: held by this process, lost (read-only), or none (memory). */
  lock: { state: 'held' | 'lost' | 'none'; owner?: LockOwner; reason?: string };
  /**
   * The last snapshot: written in this run (`thisRun`, with its duration), or the one an
   * earlier run left on disk (its trigger if recorded, no duration); null when none exists yet.
   */
  lastSave: { at: Date; trigger: SaveTrigger | null; thisRun: boolean; ms: number | null; bytes: number } | null;
  /** Journal lines written since the last snapshot (what a crash would replay). */
  unsavedJournalLines: number;
  provider: ProviderRecord;
  systemPrompt: SystemPromptRef | null;
  messageCount: number;
  /** Tokens of the whole session, conversations cleared by `/reset` included. */
  usage: { inputTokens: number; outputTokens: number };
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
  /**
   * How the program that embeds chatkeep is run (`myagent`, `npx myagent`): the commands that
   * errors suggest (`… List sessions with: chatkeep sessions list --all`) are written with it
   * instead of `chatkeep` (`ChatkeepError.suggests` holds their arguments). Default `chatkeep`.
   */
  commandName?: string;
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
  /** Resolves an ID or unique prefix across projects, without opening it. */
  resolve(idOrPrefix: string): Promise<{ id: string; project: string; location: string }>;
  /** Reads a session (snapshot + journal) without taking its lock. A newer chatkeep's file is refused (`FutureSchemaError`). */
  read(idOrPrefix: string): Promise<SessionSnapshot>;
  /**
   * Reads a session without its lock and says what is wrong with its files, if anything: for
   * `sessions show`. Listings report the same facts (what it finds is recorded in the index).
   */
  inspect(idOrPrefix: string): Promise<SessionReading>;
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
   */
  fork(from: Session | string, options?: { at?: number; title?: string }): Promise<Session>;
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
  readonly history: {
    load(): Promise<string[]>;
    append(line: string): Promise<void>;
  };
  /** Raw config objects: `<home>/config.json` (user) and `projects/<slug>/config.json` (project); `{}` when missing. A corrupt file is a UserError naming it. */
  readConfig(): Promise<{ user: Record<string, unknown>; project: Record<string, unknown> }>;
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

/** A parsed `--autosave` spec. Durations become cron expressions (`30s` becomes a 6-field expression firing every 30 seconds). */
export type AutosaveSchedule =
  | { kind: 'off'; description: 'off' }
  | { kind: 'cron'; expression: string; description: string };

/** A running autosave schedule. */
export interface Autosave {
  /** Human description for the banner, e.g. `every 5 min`, `off`. */
  readonly description: string;
  /** Next time it fires, or null when off. */
  nextDate(): Date | null;
  /** Stops the timer and waits for a running tick to finish. */
  stop(): Promise<void>;
}
