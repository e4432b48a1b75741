/**
 * What reading and listing sessions report (docs/design.md §7): a session's files as read, what is
 * wrong with them, one row of a listing, and the stored row it comes from (`IndexRow`; its
 * converters are in index-row.ts). Plain data, built on data.ts alone.
 */
import type { ModelUsage, SessionSnapshot, SessionStatus, TitleSource, Usage } from './data.js';

/**
 * What is wrong with a session's files, when something is: the same facts in listings and in
 * `read`/`inspect` (one reading of the files). `damaged`: a file does not parse or validate
 * (resuming moves it aside, kept, and continues with what is readable); `newer-version`: a
 * newer chatkeep wrote it (left untouched; upgrade to open it); `unreadable`: the files could
 * not be read at all (permissions, I/O).
 */
export interface SessionProblem {
  /** `recovered`: damaged parts were moved aside and are still kept (kept-aside.ts); what is readable is the session. */
  kind: 'damaged' | 'newer-version' | 'unreadable' | 'recovered';
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
  usage?: Usage;
  /** Set when the files are damaged, from a newer chatkeep, or unreadable; `messageCount` then counts what is readable (0 when nothing is). */
  problem?: SessionProblem;
  /** The part of `usage` whose model is known, per model (for estimating cost), as `SessionStats.byModel`. */
  byModel?: ModelUsage[];
  /** The git branch it was last used on, when known. */
  branch?: string;
  /** Set on a fork: the session it was forked from. */
  parentId?: string;
  /** Set on a fork: how many of the parent's messages it started with. */
  forkPoint?: number;
  /** On a shared server: the role it belongs to, when another role's session was shared with the one listing. */
  owner?: string;
}

/**
 * One row of `index.json`: what a listing shows, with times as epoch milliseconds (cheaper to
 * parse and turn into Dates than ISO strings: listing 10,000 rows must stay near the cost of
 * parsing them), plus the journalSeq of the snapshot the row describes.
 */
export interface IndexRow {
  id: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  status: SessionStatus;
  project: string;
  journalSeq: number;
  /** Token totals of the live conversation (absent in rows written before they were kept). */
  inputTokens?: number;
  outputTokens?: number;
  /** What is wrong with the files (absent when nothing is). */
  problem?: SessionProblem;
  /** The git branch the session was last used on (absent when unknown). */
  branch?: string;
  /** Token totals per known model (absent when none), to estimate cost without reading the session. */
  byModel?: ModelUsage[];
  /**
   * Set on a fork: the session it came from and at which message. Kept in the row so that a
   * parent's forks are found from the listing cache alone, without reading any session.
   */
  parentId?: string;
  forkPoint?: number;
  /** On a shared server: the role it belongs to, when that is not the role listing it (shared with it). */
  owner?: string;
  /** How the title came about (absent without a title, and in rows of earlier builds). */
  titleSource?: TitleSource;
  /**
   * Messages cleared by /reset or /compact, kept inside the session. Absent in rows written by
   * earlier builds: a listing reads such a session when it must know whether it holds a message.
   */
  archivedMessages?: number;
  /** The automatic title of a session stored without one by an earlier build, derived when listed. */
  derivedTitle?: string;
  /**
   * The file store's record of the snapshot the row was read from (size and mtime): a cached
   * row whose snapshot no longer has it is read again. Absent on other stores and in older rows.
   */
  snapshotStamp?: string;
}
