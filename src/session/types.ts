/**
 * The session library's data model and public interfaces (DESIGN §1 library, §3 storage).
 * Everything here is terminal-free: the REPL and other embedders build on it.
 */
import type { LockOwner } from './errors.js';

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
}

/** What `append()` takes: a message whose timestamp defaults to now. */
export type NewMessage = Omit<Message, 'timestamp'> & { timestamp?: Date };

export type SessionStatus = 'open' | 'closed' | 'interrupted';

/** Where a configuration value came from. */
export type ConfigSource = 'flag' | 'env' | 'project' | 'user' | 'default' | 'session';

/** One effective configuration value and its source. */
export interface ConfigValue {
  value: string | number | boolean | null;
  source: ConfigSource;
}

/** The project (working directory) a session belongs to. */
export interface ProjectInfo {
  /** Directory name under `projects/`. */
  slug: string;
  /** The real absolute path of the working directory. */
  path: string;
  /** `<home>/projects/<slug>` */
  dir: string;
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
}

/** The system prompt is not a message: only its path and hash are stored. */
export interface SystemPromptRef {
  path: string;
  sha256: string;
}

/** The snapshot file (`session.json`), decoded. DESIGN §3. */
export interface SessionSnapshot {
  format: 'chatkeep.session';
  schemaVersion: number;
  id: string;
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
  status: SessionStatus;
  /** The project's real path. */
  project: string;
  host: string;
  pid: number;
  toolVersion: string;
  provider: { name: string; model: string | null };
  systemPrompt: SystemPromptRef | null;
  config: Record<string, ConfigValue>;
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
}

/** One row of a listing (`/sessions`, `chatkeep sessions list --json`). */
export interface SessionSummary {
  id: string;
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
  messageCount: number;
  status: SessionStatus;
  /** The project's real path. */
  project: string;
  provider?: { name: string; model: string | null };
  usage?: { inputTokens: number; outputTokens: number };
}

export interface ListOptions {
  /** Every project, not just this one. */
  all?: boolean;
  /** Case-insensitive filter on ID and title. */
  query?: string;
}

export interface SaveResult {
  /** False when nothing had changed since the last snapshot (and `force` was not set). */
  saved: boolean;
  id: string;
  messageCount: number;
  /** Path of `session.json`. */
  path: string;
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
  /** Completes the reply as one assistant message, fdatasync'ed. */
  finish(extra?: { usage?: Usage; interrupted?: boolean; toolCalls?: ToolCall[] }): Promise<Message>;
}

/** What `Session.retake()` found. */
export type RetakeResult =
  | { retaken: true }
  /** `holder`: the process that holds it now; undefined when it was let go but changed meanwhile. */
  | { retaken: false; holder?: LockOwner };

/** A session held open by this process (it holds the cross-process lock). */
export interface Session {
  readonly id: string;
  readonly dir: string;
  readonly project: ProjectInfo;
  readonly messages: readonly Message[];
  readonly title: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly provider: { name: string; model: string | null };
  readonly stats: Readonly<SessionStats>;
  readonly archived: readonly ArchivedSegment[];
  /** True once the lock was lost: nothing is written until it is held again. */
  readonly readOnly: boolean;
  /** True when something changed since the last snapshot. */
  readonly dirty: boolean;
  /** What resume found (zeroes for a new session). */
  readonly resumeReport: ResumeReport;

  /** Appends one message; durable (journaled and fdatasync'ed) once it resolves. Secrets are redacted first. */
  append(message: NewMessage): Promise<Message>;
  /** Starts a streamed assistant reply. */
  beginReply(): ReplyWriter;
  setTitle(title: string | null): Promise<void>;
  setProvider(provider: { name: string; model: string | null }, source?: ConfigSource): Promise<void>;
  setConfig(key: string, value: ConfigValue): Promise<void>;
  setSystemPrompt(ref: SystemPromptRef | null): Promise<void>;
  /** Writes a snapshot (atomic) and truncates the journal. With `ifChanged`, does nothing when clean. */
  save(options?: { title?: string; ifChanged?: boolean }): Promise<SaveResult>;
  /** Saves, then archives the live conversation inside the session and clears it; the ID stays. */
  reset(): Promise<void>;
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
  /** proper-lockfile `stale` in ms (default 20000). */
  lockStaleMs?: number;
}

/** One project's sessions, plus lookups across every project. */
export interface SessionManager {
  readonly home: string;
  readonly project: ProjectInfo;
  /** Creates a new session in this project, holding its lock. */
  create(options?: { title?: string; provider?: { name: string; model: string | null } }): Promise<Session>;
  /** Resumes by ID or unique ID prefix, found in any project; takes the lock (SessionInUseError, exit 3). */
  resume(idOrPrefix: string): Promise<Session>;
  /** Resolves an ID or unique prefix across projects, without opening it. */
  resolve(idOrPrefix: string): Promise<{ id: string; project: string; dir: string }>;
  /** Reads a session (snapshot + journal) without taking its lock: for `sessions show`. */
  read(idOrPrefix: string): Promise<SessionSnapshot>;
  /** Newest first. */
  list(options?: ListOptions): Promise<SessionSummary[]>;
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
  /** This project's input history (`projects/<slug>/history`, mode 0600, redacted), oldest first. */
  readonly history: {
    load(): Promise<string[]>;
    append(line: string): Promise<void>;
  };
  /** Raw config objects: `<home>/config.json` (user) and `projects/<slug>/config.json` (project); `{}` when missing. A corrupt file is a UserError naming it. */
  readConfig(): Promise<{ user: Record<string, unknown>; project: Record<string, unknown> }>;
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
