/**
 * The session library's plain data (docs/design.md §2, §5): messages, the snapshot and
 * what it records. Values only: this module imports nothing but message-parts.ts (plain data too), so providers, search, stores and
 * exports take it without the live API (session-api.ts, manager-api.ts).
 */
import type { ContentPart, JsonValue } from './message-parts.js';

/** `system`: instructions in the conversation (the system prompt file stays `SystemPromptRef`). */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Token counts reported by a provider for one reply. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** The provider's own breakdown (cached, reasoning tokens…), kept as reported; not summed. */
  details?: { [key: string]: JsonValue };
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
  /** The message's text (given as parts: its text and refusal parts, joined by newlines): what is shown and searched. */
  content: string;
  timestamp: Date;
  /** The content in parts (text, images, reasoning, refusals, native blocks), when it is more than text. */
  parts?: ContentPart[];
  /** The provider's ID of this message or item. */
  id?: string;
  /** The participant's name (OpenAI `name`), or a tool result's tool. */
  name?: string;
  /** A tool result's status as the tool or framework reported it (`completed`, `incomplete`, `error`…). */
  status?: string;
  /** The provider that wrote an assistant message (`anthropic`, `openai`): its reasoning goes back only there. */
  provider?: string;
  /** Whatever else the host keeps with the message (JSON). */
  metadata?: { [key: string]: JsonValue };
  /** The provider-native item this message was made from, kept exactly as it was (JSON). */
  native?: JsonValue;
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

/**
 * What `append()` takes: a message whose timestamp defaults to now, whose content may be given
 * as parts (its text is then worked out), and whose tool calls' arguments may be JSON values.
 * A field chatkeep does not know is refused (`InvalidMessageError`): keep it under `metadata`.
 */
export type NewMessage = Omit<Message, 'timestamp' | 'content' | 'toolCalls'> & {
  content: string | ContentPart[];
  timestamp?: Date;
  toolCalls?: NewToolCall[];
};

/** A tool call as given: `arguments` as JSON text or as the JSON value itself. */
export type NewToolCall = Omit<ToolCall, 'arguments'> & { arguments?: string | JsonValue };

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
  /**
   * `uncompact`: the part `/uncompact` leaves when it undoes a compaction in place: no messages
   * (they are live again), `summary` the one set aside, `stats` what it cost. Absent on the
   * parts `/reset` and `/compact` archive (what archived those is told by what followed them).
   */
  by?: 'uncompact';
}

/** Tokens are counted as `Usage` is: `inputTokens`, `outputTokens` (the names the snapshot stores). */
export interface SessionStats extends Usage {
  messageCount: number;
  /** The tokens of replies whose model is known, per model (absent until there is one). */
  byModel?: ModelUsage[];
}

/** Token totals of one model's replies. */
export interface ModelUsage extends Usage {
  model: string;
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

/** The snapshot file (`session.json`), decoded (docs/design.md §5). */
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
  savedBy?: StoredTrigger;
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
  /** Set on an import of a chatkeep export whose ID was taken here already: the ID it was exported under (it got a new one). */
  importedFrom?: string;
  /**
   * Set on a conversation read from another tool (`sessions import --from`): where it came from.
   * A field of its own: builds before it read `importedFrom` as an ID and would have found these
   * sessions damaged; they read this one as an unknown field, and the session as any other.
   */
  importSource?: ImportSource;
  /** Where it was last used, when that was a git work tree (absent in older files). */
  git?: GitContext;
  /** Events kept as stored: of types this build does not know (a newer chatkeep wrote them), and graph events (graph-events.ts); absent when none. */
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

/** What wrote a snapshot, as stored: a save on request, the autosave timer, leaving, `/reset`, recovery on resume. */
export type StoredTrigger = 'save' | 'autosave' | 'close' | 'reset' | 'recovery';

/**
 * What wrote a snapshot, as this run knows it: also `fork`, a fork's first snapshot. That one is
 * stored as `save` (it is made on request): older builds check `savedBy` against the five above
 * and would take any other word for a damaged file.
 */
export type SaveTrigger = StoredTrigger | 'fork';

/** Where a session is kept (`Session.where`). */
export interface SessionWhere {
  /** For people: the snapshot file, or the server (never its password) and ID. */
  location: string;
  /** The file store's session directory, `session.json` and `journal.jsonl`. */
  files?: { dir: string; snapshot: string; journal: string };
}

/** The raw config objects (`SessionManager.readConfig`): the user's and the project's `config.json`, `{}` when missing. */
export interface ConfigFiles {
  user: Record<string, unknown>;
  project: Record<string, unknown>;
}
