/**
 * The live session (docs/design.md §2): a `Session` held open by this process, and what its
 * calls resolve to. Terminal-free: the REPL and other embedders build on it.
 */
import type { LockOwner } from './errors.js';
import type { LostForGood } from './lost-for-good.js';
import type {
  ArchivedSegment, ConfigSource, ConfigValue, GitContext, Message, NewMessage, ProjectInfo, ProviderRecord, SaveTrigger, StoredTrigger,
  SessionSnapshot, SessionStats, SessionWhere, SystemPromptRef, TitleSource, ToolCall, Usage, NewToolCall,
} from './data.js';
import type { ToolCallDelta } from './message-parts.js';
import type { GraphEventType, GraphPayload } from './graph-events.js';

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
export interface ReplyExtra extends Omit<NewMessage, 'role' | 'content' | 'timestamp'> {
  usage?: Usage;
  interrupted?: boolean;
  /** The reply's tool calls (default: those streamed with `pushToolCall`). */
  toolCalls?: NewToolCall[];
  /** The model that wrote it. */
  model?: string;
}

/** A live reply being streamed into the session: partial text is journaled as it arrives. */
export interface ReplyWriter {
  /**
   * Adds text and journals it (no fsync: a crash of this process keeps it). Text is journaled
   * up to a point where no secret can be split (the end of the last whole word), redacted, so the
   * promise resolves with the text this call stored ('' while the end of a word is awaited; the
   * finished message holds the rest): show that, and the screen never holds what a crash would
   * lose, nor a secret the store does not. (Not the whole text so far: a long reply would be
   * copied once per piece.)
   */
  push(text: string): Promise<string>;
  /**
   * Adds a piece of a tool call being streamed (the call at `delta.index`: its id and name when
   * they arrive, the next piece of its arguments' text) and journals it as `push` journals text,
   * cut where no secret can be split: a crash keeps every piece shown, and the resumed reply is
   * an interrupted message holding the calls so far. Resolves with the call as it is on disk.
   */
  pushToolCall(delta: ToolCallDelta): Promise<ToolCall>;
  /** The reply's text so far, as pushed (the reply owns it: callers slice what to show from it). */
  readonly text: string;
  /** The reply's text as journaled so far: redacted, what a crash keeps, and so what is safe to show. */
  readonly stored: string;
  /** Completes the reply as one assistant message, fdatasync'ed. */
  finish(extra?: ReplyExtra): Promise<Message>;
}

/** What `Session.retake()` found. */
export type RetakeResult =
  | { retaken: true }
  /** `holder`: the process that holds it now; undefined when it was let go but changed meanwhile. */
  | {
      retaken: false;
      holder?: LockOwner;
      /**
       * The session is no longer this role's to write: its owner stopped sharing it for writing, or
       * it was deleted from the store. No process holds it, and there is nothing to take back.
       */
      revoked?: LostForGood;
    };

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

  /**
   * Appends one message or several, in order; durable (journaled and fdatasync'ed) once it
   * resolves. Secrets are redacted first. All are checked before any is written. Resolves to the
   * last one stored (the others are just before it in `messages`).
   */
  append(...messages: [NewMessage, ...NewMessage[]]): Promise<Message>;
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
  /**
   * Journals one LangGraph event (fdatasync'ed once it resolves) for `chatkeep/langgraph`: kept as
   * stored among `copyState().futureEvents`, never read as a message (graph-events.ts). Not redacted:
   * a checkpoint is given back exactly as put.
   */
  journalGraph(type: GraphEventType, payload: GraphPayload): Promise<void>;
  /** Keeps (journaled, redacted) or clears (null, '') the unsent line, for the next resume to put back. */
  setDraft(text: string | null): Promise<void>;
  /**
   * Marks the answers to the last user message superseded (kept, no longer sent to the model),
   * so that message can be asked again. Undefined when there is no user message.
   */
  supersedeAnswers(): Promise<{ question: Message; superseded: number } | undefined>;
  /**
   * Marks live messages (by index) superseded: kept in the transcript, never sent to a model
   * again (a framework's "remove the last item"). Indexes out of range or already superseded are ignored.
   */
  supersedeMessages(indexes: readonly number[]): Promise<void>;
  /** Writes a snapshot (atomic) and truncates the journal. With `ifChanged`, does nothing when clean. */
  save(options?: { title?: string; ifChanged?: boolean; trigger?: StoredTrigger }): Promise<SaveResult>;
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
  /**
   * Undoes the last compaction in place: the messages it archived are live again ahead of the
   * ones it kept, the summary before it back in force; the summary undone stays in the archive
   * (a part of its own, `by: 'uncompact'`). Refused with `NothingToUncompactError` when no
   * compaction is left to undo, and with `AddedSinceCompactionError` when messages were added
   * since (then `SessionManager.fork(session, { uncompact: true })` makes a fork of it instead).
   */
  uncompact(): Promise<void>;
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

/** A session's storage facts, as `Session.status()` reports them. */
export interface SessionStatusReport {
  id: string;
  /** `file`: the data directory (paths below); `postgres`: a server; `memory`: this process's memory (`persist: false`). */
  store: 'file' | 'postgres' | 'memory';
  /** Where the session is kept (`Session.where`). */
  where: SessionWhere;
  /** The session's lock: held by this process, or lost (read-only). */
  lock: { state: 'held' | 'lost'; owner?: LockOwner; reason?: string };
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
  usage: Usage;
}
