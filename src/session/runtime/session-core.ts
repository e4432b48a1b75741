/**
 * The state and storage of a session held open by this process (docs/design.md §4, §12): its fields,
 * the one way an event is written (`write`: journaled, then applied), snapshots, the listing row,
 * and what a lost lock stops. `SessionImpl` (session.ts) is the public API built on it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Mutex } from 'async-mutex';
import type { ArchivedSegment, GitContext, Message, ProjectInfo, ProviderRecord, SaveTrigger, SessionSnapshot, SessionStats, SessionWhere, SystemPromptRef, TitleSource } from '../api/data.js';
import type { ResumeReport, SaveResult, SessionStatusReport } from '../api/session-api.js';
import { LockSupersededError, ReadOnlySessionError, SessionClosedError, StoreUnavailableError } from '../api/errors.js';
import { WarningChannel } from './emitter.js';
import type { EventLog, WriterLock } from '../format/store.js';
import type { WholeStore } from './store-defaults.js';
import { SCHEMA_VERSION } from '../format/migrations.js';
import { applyEvent } from '../model/apply-event.js';
import type { EventChange, KnownEvent } from '../model/events.js';
import { ActiveReplies } from './active-replies.js';
import { rowFromSnapshot } from '../format/index-row.js';
import { withKeptAside } from '../format/kept-aside.js';

/** Which sessions' mutexes the current async context holds: lets a write nest inside `runExclusive`. */
export const held = new AsyncLocalStorage<ReadonlySet<object>>();

/** What a `SessionImpl` needs from the manager. */
export interface SessionDeps {
  store: WholeStore;
  project: ProjectInfo;
  state: SessionSnapshot;
  /** The session's event log, open for appending. */
  log: EventLog;
  /** The stored snapshot's event seq (default: the state's). */
  savedSeq?: number;
  /** The writer lock, held. */
  lock: WriterLock;
  report: ResumeReport;
  redact: (text: string) => string;
  now: () => Date;
  toolVersion: string;
  /** Something changed that no snapshot holds yet (events replayed on resume). */
  dirty?: boolean;
  /** The status the stored snapshot records (undefined: no snapshot yet). */
  savedStatus?: SessionSnapshot['status'];
  /** The git work tree of this run, being read; recorded when it resolves to one. */
  git?: Promise<GitContext | undefined>;
  /**
   * A new session holding no message yet (docs/design.md §3): nothing is written but its ID, lock and
   * events until the first message; left without one, it is discarded (its ID stays issued).
   */
  provisional?: boolean;
  /** The program chose the ID (`create({ id })`): discarded, the ID is free again. */
  chosenId?: boolean;
  /** Damaged parts of it kept aside (kept-aside.ts): its listing row says so while they are. */
  aside?: string[];
}

/** What every `SessionImpl` is made of (see session.ts for the API). */
export abstract class SessionCore {
  readonly id: string;
  readonly project: ProjectInfo;
  readonly resumeReport: ResumeReport;
  protected readonly store: WholeStore;
  protected state: SessionSnapshot;
  protected log: EventLog;
  protected lock: WriterLock;
  /** The seq the last snapshot contains: events past it are not in a snapshot yet. */
  protected savedSeq: number;
  protected lastSave: SessionStatusReport['lastSave'] = null;
  protected readonly redact: (text: string) => string;
  protected readonly now: () => Date;
  protected readonly toolVersion: string;
  /** async-mutex loads with the first write, after the first prompt; callers queue in order meanwhile. */
  protected mutex: Promise<Mutex> | undefined;
  protected readonly warnings = new WarningChannel();
  /** Replies being streamed (each owns its text): a snapshot journals their text again past its seq. */
  protected readonly activeReplies = new ActiveReplies();
  protected seq: number;
  protected changed: boolean;
  protected lost: Error | undefined;
  protected closed: SaveResult | undefined;
  protected savedStatus: SessionSnapshot['status'] | undefined;
  /** Settles once this run's git context is recorded (or found absent): close() waits for it. */
  protected readonly gitRecorded: Promise<void>;
  /** Holds no message yet (see `SessionDeps.provisional`). */
  protected provisional: boolean;
  protected readonly chosenId: boolean;
  protected readonly aside: string[] | undefined;
  /**
   * The automatic title being worked out (string-width loads meanwhile, off the way to the first
   * request): journaled before the next durable event or snapshot, so its place is always the same.
   */
  protected pendingTitle: Promise<string | null> | undefined;

  constructor(deps: SessionDeps) {
    this.id = deps.state.id;
    this.store = deps.store;
    this.project = deps.project;
    this.state = deps.state;
    this.log = deps.log;
    this.lock = deps.lock;
    this.resumeReport = deps.report;
    this.redact = deps.redact;
    this.now = deps.now;
    this.toolVersion = deps.toolVersion;
    this.seq = deps.state.journalSeq;
    this.savedSeq = deps.savedSeq ?? deps.state.journalSeq;
    this.changed = deps.dirty ?? false;
    this.savedStatus = deps.savedStatus;
    this.provisional = deps.provisional ?? false;
    this.chosenId = deps.chosenId ?? false;
    this.aside = deps.aside;
    this.gitRecorded = (deps.git ?? Promise.resolve(undefined)).then((git) => (git ? this.recordGit(git) : undefined)).catch(() => undefined);
  }
  get where(): SessionWhere { return this.store.where(this.id); }
  get messages(): readonly Message[] { return this.state.messages; }
  get title(): string | null { return this.state.title; }
  get titleSource(): TitleSource | undefined { return this.state.title === null ? undefined : this.state.titleSource ?? 'user'; }
  get createdAt(): Date { return this.state.createdAt; }
  get updatedAt(): Date { return this.state.updatedAt; }
  get provider(): Readonly<ProviderRecord> { return this.state.provider; }
  get draft(): string | null { return this.state.draft ?? null; }
  get systemPrompt(): Readonly<SystemPromptRef> | null { return this.state.systemPrompt; }
  get stats(): Readonly<SessionStats> { return this.state.stats; }
  get archived(): readonly ArchivedSegment[] { return this.state.archived; }
  get summary(): string | null { return this.state.summary; }
  get readOnly(): boolean { return this.lost !== undefined; }
  get dirty(): boolean { return this.changed; }
  get git(): GitContext | undefined { return this.state.git; }
  /** Closed by `close()`: nothing more is written through it. */
  get isClosed(): boolean { return this.closed !== undefined; }



  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const mine = held.getStore();
    if (mine?.has(this)) return fn();
    this.mutex ??= import('async-mutex').then((m) => new m.Mutex());
    return this.mutex.then((mutex) => mutex.runExclusive(() => held.run(new Set([...(mine ?? []), this]), fn)));
  }

  onWarning(listener: (message: string) => void): () => void {
    return this.warnings.subscribe(listener);
  }

  /** Called when the cross-process lock is lost: from now on nothing is written. Never throws. */
  markLockLost(err: Error): void {
    if (this.lost || this.closed) return;
    this.lost = err;
    // Nothing more of a reply being streamed is written: it stays as far as it was journaled.
    this.activeReplies.abandon(this.state, new ReadOnlySessionError(this.id, err instanceof StoreUnavailableError ? err : undefined));
    // The store went away (its connection dropped): the next write says so, in one line.
    if (err instanceof StoreUnavailableError) return;
    this.warnings.emit(`Lost the lock on session ${this.id} (${err.message}): nothing more is written to it until it is held again.`);
  }

  /**
   * Records the git work tree this run uses, when it differs from the one recorded (a session
   * resumed and left as it was stays unchanged). Skipped once closed or read-only: a failure
   * (a lost lock) is not this write's to report.
   */
  protected recordGit(git: GitContext): Promise<void> {
    return this.runExclusive(async () => {
      const old = this.state.git;
      if (this.closed || this.lost || (old && old.root === git.root && old.branch === git.branch && old.head === git.head)) return;
      await this.write({ type: 'git', payload: { root: git.root, branch: git.branch, head: git.head } });
    });
  }

  /** Reports a failure that happened outside any caller's await (autosave). */
  warn(message: string): void {
    this.warnings.emit(message);
  }

  /** Journals the automatic title worked out since the first user message, unless a title was chosen meanwhile. */
  protected async flushTitle(): Promise<void> {
    const pending = this.pendingTitle;
    if (!pending) return;
    this.pendingTitle = undefined;
    const title = await pending;
    if (title !== null && this.state.title === null && this.state.titleSource !== 'user') await this.writeTitle(title, 'auto');
  }

  /** Journals an already-redacted title, then applies it. An automatic one needs no fsync: its message, which gives it again, has one. */
  protected async writeTitle(title: string | null, source: TitleSource): Promise<void> {
    await this.write({ type: 'title', payload: { title, source } }, source === 'user');
  }

  /** Closing a session that never held a message: nothing is kept, its ID stays issued (docs/design.md §3). */
  protected async discard(): Promise<SaveResult> {
    this.closed = this.result(false);
    await this.log.close().catch(() => undefined);
    await this.store.discard(this.id, this.lock, { freeId: this.chosenId }).catch(async (err: unknown) => {
      this.warn(`Could not remove the empty session ${this.id} (${err instanceof Error ? err.message : String(err)}); listings leave it out.`);
      await this.lock.release().catch(() => undefined);
    });
    return this.closed;
  }

  /**
   * The listing row of the stored snapshot (in the file store, caches: the index and
   * session.meta.json). A failure warns, and the next listing reads the session itself.
   */
  protected async recordRow(state: SessionSnapshot, status: 'open' | 'closed'): Promise<void> {
    const row = withKeptAside(rowFromSnapshot(state, status), this.aside);
    await this.store.recordRow(row, this.project).catch((err: unknown) =>
      this.warn(`Could not update the session index (${String(err)}); it is rebuilt on the next listing.`),
    );
  }

  /**
   * Checks that the lock is still ours: a process thawed after the stale time may find another host's process holding it
   * before proper-lockfile's timer says so, and must not write a line into that one's session.
   */
  protected async assertWritable(): Promise<void> {
    this.assertOpen();
    if (!(await this.lock.stillHeld())) this.markLockLost(new Error('another process took it over'));
    this.assertOpen();
  }

  /** A store refused a write of a superseded epoch: the lock is lost, and the write says so as any write after a loss does. */
  protected fenced(err: unknown): never {
    if (!(err instanceof LockSupersededError)) throw err;
    this.markLockLost(err);
    throw new ReadOnlySessionError(this.id);
  }

  protected assertOpen(): void {
    if (this.closed) throw new SessionClosedError(this.id);
    if (this.lost) throw new ReadOnlySessionError(this.id, this.lost instanceof StoreUnavailableError ? this.lost : undefined);
  }

  /**
   * Journals one event, then applies it (`applyEvent`, as a resume applies it): the in-memory
   * state changes only after the event is written. Resolves to the message it added, if any.
   */
  protected async write(change: EventChange, sync = true, at = this.now()): Promise<Message | undefined> {
    await this.assertWritable();
    if (sync && change.type !== 'title') await this.flushTitle();
    const event = { seq: this.seq + 1, ts: at.toISOString(), ...change } as KnownEvent;
    await this.log.append({ ...event, id: randomBytes(9).toString('base64url') }, sync).catch((err: unknown) => this.fenced(err));
    this.seq = event.seq;
    this.changed = true;
    return applyEvent(this.state, event);
  }

  /** Snapshot (atomic), then truncate the journal it now contains, then the index row. */
  protected async snapshot(status: 'open' | 'closed', trigger: SaveTrigger): Promise<void> {
    await this.assertWritable();
    // A session is written once it holds a message (docs/design.md §3).
    if (this.provisional) return;
    await this.flushTitle();
    // A reply still streaming is not in the snapshot: its text so far is journaled again past
    // the snapshot's seq *before* the snapshot claims that seq, so no moment exists at which a
    // kill leaves the shown part neither in the snapshot nor in the journal.
    const journalSeq = this.seq;
    const active = this.activeReplies.journaled();
    for (const reply of active) {
      const toolCalls = reply.journaledCalls;
      await this.write({ type: 'delta', payload: { replyId: reply.replyId, text: reply.journaled, replace: true, ...(toolCalls.length ? { toolCalls } : {}) } }, false);
    }
    const snapshot: SessionSnapshot = {
      ...this.state,
      format: 'chatkeep.session',
      schemaVersion: SCHEMA_VERSION,
      status,
      host: hostname(),
      pid: process.pid,
      toolVersion: this.toolVersion,
      journalSeq,
      savedBy: trigger === 'fork' ? 'save' : trigger,
    };
    const started = performance.now();
    const bytes = await this.store.writeSnapshot(this.id, snapshot, this.lock).catch((err: unknown) => this.fenced(err));
    this.lastSave = { at: this.now(), trigger, thisRun: true, ms: performance.now() - started, bytes };
    this.state = snapshot;
    this.savedStatus = status;
    this.savedSeq = journalSeq;
    this.changed = false;
    try {
      // With a reply streaming, the journal keeps its lines (those up to the snapshot's seq are
      // skipped on load) until a snapshot without one truncates it.
      if (active.length === 0) await this.log.compact(journalSeq);
    } catch (err) {
      // The snapshot is durable; the old lines are ≤ its journalSeq and are skipped on load.
      this.warn(`Could not truncate the journal of ${this.id}: ${String(err)}`);
    }
    await this.recordRow(snapshot, status);
  }

  protected result(saved: boolean): SaveResult {
    const result: SaveResult = { saved, id: this.id, messageCount: this.state.stats.messageCount, location: this.store.where(this.id).location };
    return this.provisional ? { ...result, empty: true } : result;
  }
}
