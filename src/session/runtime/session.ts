import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Mutex } from 'async-mutex';
import type { ArchivedSegment, ConfigSource, ConfigValue, GitContext, Message, NewMessage, ProjectInfo, ProviderRecord, SaveTrigger, SessionSnapshot, StoredTrigger, SessionWhere, SessionStats, SystemPromptRef, TitleSource, Usage } from '../api/data.js';
import type { ReplyWriter, ResumeReport, RetakeResult, SaveResult, Session, SessionStatusReport } from '../api/session-api.js';
import { AddedSinceCompactionError, BadOptionError, LockSupersededError, NothingToUncompactError, ReadOnlySessionError, SessionClosedError, StoreUnavailableError } from '../api/errors.js';
import { WarningChannel } from './emitter.js';
import type { EventLog, WriterLock } from '../format/store.js';
import type { WholeStore } from './store-defaults.js';
import { SCHEMA_VERSION } from '../format/migrations.js';
import { applyEvent } from '../model/apply-event.js';
import { statsOf } from '../model/stats.js';
import { keptLive, lastCompaction } from '../model/uncompact.js';
import type { Compaction, EventChange, KnownEvent } from '../model/events.js';
import type { GraphEventType, GraphPayload } from '../api/graph-events.js';
import { encodeMessage, storedMessage } from '../model/message-codec.js';
import { createReplyWriter, type ActiveReply } from './reply-writer.js';
import { ActiveReplies } from './active-replies.js';
import { retakeLock } from './retake.js';
import { cleanTitle } from '../api/title.js';
import { automaticTitle, firstUserMessage } from '../model/auto-title.js';
import { rowFromSnapshot } from '../format/index-row.js';
import { withKeptAside } from '../format/kept-aside.js';
import type { IndexRow } from '../api/listing.js';
import { statusReport } from './status.js';
import { anyText, checkArgument, checkOptions, nullableText, wholeNumber } from '../api/check-options.js';
import { PROVIDER, SAVE_OPTIONS } from '../api/library-options.js';

/** Which sessions' mutexes the current async context holds: lets a write nest inside `runExclusive`. */
const held = new AsyncLocalStorage<ReadonlySet<object>>();

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

/** A session held open by this process. See `Session` in types.ts. */
export class SessionImpl implements Session {
  readonly id: string;
  readonly project: ProjectInfo;
  readonly resumeReport: ResumeReport;
  private readonly store: WholeStore;
  private state: SessionSnapshot;
  private log: EventLog;
  private lock: WriterLock;
  /** The seq the last snapshot contains: events past it are not in a snapshot yet. */
  private savedSeq: number;
  private lastSave: SessionStatusReport['lastSave'] = null;
  private readonly redact: (text: string) => string;
  private readonly now: () => Date;
  private readonly toolVersion: string;
  /** async-mutex loads with the first write, after the first prompt; callers queue in order meanwhile. */
  private mutex: Promise<Mutex> | undefined;
  private readonly warnings = new WarningChannel();
  /** Replies being streamed (each owns its text): a snapshot journals their text again past its seq. */
  private readonly activeReplies = new ActiveReplies();
  private seq: number;
  private changed: boolean;
  private lost: Error | undefined;
  private closed: SaveResult | undefined;
  private savedStatus: SessionSnapshot['status'] | undefined;
  /** Settles once this run's git context is recorded (or found absent): close() waits for it. */
  private readonly gitRecorded: Promise<void>;
  /** Holds no message yet (see `SessionDeps.provisional`). */
  private provisional: boolean;
  private readonly chosenId: boolean;
  private readonly aside: string[] | undefined;
  /**
   * The automatic title being worked out (string-width loads meanwhile, off the way to the first
   * request): journaled before the next durable event or snapshot, so its place is always the same.
   */
  private pendingTitle: Promise<string | null> | undefined;

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

  retake(): Promise<RetakeResult> {
    return this.runExclusive(async () => {
      if (!this.lost) return { retaken: true };
      if (this.closed) return { retaken: false };
      const back = await retakeLock(this.store, {
        id: this.id,
        projectPath: this.project.path,
        now: this.now,
        seq: this.seq,
        onLost: (err) => this.markLockLost(err),
      });
      if (!('lock' in back)) return back;
      await this.log.close().catch(() => undefined);
      this.log = back.log;
      // What is stored is this process's own: taken as it is stored (a reply the loss cut off is
      // in it, interrupted, as a resume would show it).
      this.state = back.state;
      this.activeReplies.abandon(undefined); // begun after the loss, nothing of them written
      this.seq = back.lastSeq;
      this.savedSeq = back.savedSeq;
      this.changed ||= back.pending;
      this.savedStatus = back.savedStatus;
      this.lock = back.lock;
      this.lost = undefined;
      return { retaken: true };
    });
  }

  copyState(): SessionSnapshot {
    return structuredClone(this.state);
  }

  /** Writes a snapshot now, whatever changed: after recovering from damage or a crash mid-reply. */
  persist(trigger: 'recovery' | 'fork' = 'recovery'): Promise<void> {
    return this.runExclusive(() => this.snapshot('open', trigger));
  }

  /** Marks this session's index row open (it is held now); failures only warn. */
  touchRow(): Promise<void> {
    return this.runExclusive(async () => {
      if (this.closed || this.lost) return; // close() has written the final row
      // The row holds every event so far (messages appended since the snapshot included): a
      // listing applies only the journal past it, or it counts those messages twice.
      await this.recordRow({ ...this.state, journalSeq: this.seq }, 'open');
    });
  }

  /** This session's listing row as this process has it now (a reply still streaming is not a message yet). */
  liveRow(): IndexRow {
    return withKeptAside(rowFromSnapshot({ ...this.state, journalSeq: this.seq }, 'open'), this.aside);
  }

  /**
   * Records the git work tree this run uses, when it differs from the one recorded (a session
   * resumed and left as it was stays unchanged). Skipped once closed or read-only: a failure
   * (a lost lock) is not this write's to report.
   */
  private recordGit(git: GitContext): Promise<void> {
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

  append(...inputs: [NewMessage, ...NewMessage[]]): Promise<Message> {
    if (inputs.length === 0) return Promise.reject(new BadOptionError('append', undefined, 'takes one message or more, not none.'));
    if (inputs.length === 1) return this.runExclusive(() => this.writeMessage(inputs[0]));
    return this.runExclusive(async () => {
      // All are checked before the first is written: a bad one in the middle leaves none half-stored.
      for (const input of inputs) storedMessage(input, (text) => text, this.now());
      let last: Message | undefined;
      for (const input of inputs) last = await this.writeMessage(input);
      return last!;
    });
  }

  /**
   * Journals a message, then applies it. Its time is taken once: the message's own (when it
   * has none) and its event's are the same instant.
   */
  private async writeMessage(input: NewMessage, replyId?: string): Promise<Message> {
    const at = this.now();
    const message = storedMessage(input, this.redact, at);
    // The message as applied: what a resume reads back from the journal.
    const stored = (await this.write({ type: 'message', payload: { message: encodeMessage(message), ...(replyId ? { replyId } : {}) } }, true, at))!;
    this.noteStored(stored);
    await this.noteModel(stored);
    return stored;
  }

  /**
   * A session nobody chose an assistant for (the blank `echo`, no model: a framework's or a
   * host's conversation) records the first model an assistant message names, and its provider
   * when the message says (`unknown` when not), so list and show say what wrote it. A chosen
   * provider is left as chosen: it is what the next turn uses.
   */
  private async noteModel(message: Message): Promise<void> {
    if (message.role !== 'assistant' || !message.model || this.provider.name !== 'echo' || this.provider.model !== null) return;
    await this.write({ type: 'provider', payload: { name: message.provider ?? 'unknown', model: message.model, source: 'session' } });
  }

  /** A message is stored: the session exists from now on, and its first user message names it unless a title was chosen. */
  private noteStored(message: Message): void {
    this.provisional = false;
    if (message.role !== 'user' || this.pendingTitle || this.state.title !== null || this.state.titleSource === 'user') return;
    this.pendingTitle = automaticTitle((firstUserMessage(this.state) ?? message).content, this.redact).catch(() => null);
  }

  /** Journals the automatic title worked out since the first user message, unless a title was chosen meanwhile. */
  private async flushTitle(): Promise<void> {
    const pending = this.pendingTitle;
    if (!pending) return;
    this.pendingTitle = undefined;
    const title = await pending;
    if (title !== null && this.state.title === null && this.state.titleSource !== 'user') await this.writeTitle(title, 'auto');
  }

  beginReply(): ReplyWriter {
    return createReplyWriter({
      runExclusive: (fn) => this.runExclusive(fn),
      redact: this.redact,
      journalDelta: async (replyId, text, toolCalls) => {
        await this.write({ type: 'delta', payload: { replyId, text, ...(toolCalls ? { toolCalls } : {}) } }, false);
      },
      streaming: (reply, active) => (active ? this.activeReplies.started(reply, this.state, this.now()) : this.activeReplies.ended(reply)),
      completeReply: (reply, content, extra) => this.finishReply(reply, { ...extra, role: 'assistant', content }),
    });
  }

  /** A streamed reply's finishing message; when it cannot be written the reply is given up, as far as it was journaled. */
  private async finishReply(reply: ActiveReply, input: NewMessage): Promise<Message> {
    // Checked before anything is written: a bad message leaves the reply open for a good one.
    storedMessage(input, (text) => text, this.now());
    try {
      return await this.writeMessage(input, reply.replyId);
    } catch (err) {
      this.activeReplies.abandon(this.state, err instanceof Error ? err : undefined, reply);
      throw err;
    }
  }

  async setTitle(title: string | null): Promise<void> {
    checkArgument('setTitle', 'title', title, nullableText);
    return this.runExclusive(() => this.writeTitle(title === null ? null : cleanTitle(title, this.redact), 'user'));
  }

  async setProvider(provider: { name: string; model: string | null }, source: ConfigSource = 'session'): Promise<void> {
    checkArgument('setProvider', 'provider', provider, PROVIDER);
    return this.runExclusive(async () => {
      await this.write({ type: 'provider', payload: { name: provider.name, model: provider.model, source } });
    });
  }

  setConfig(key: string, value: ConfigValue): Promise<void> {
    return this.runExclusive(async () => {
      const clean: ConfigValue = typeof value.value === 'string' ? { ...value, value: this.redact(value.value) } : { ...value };
      await this.write({ type: 'config', payload: { key, value: clean } });
    });
  }

  setSystemPrompt(ref: SystemPromptRef | null, source?: ConfigSource): Promise<void> {
    return this.runExclusive(async () => {
      const recorded = ref && { path: ref.path, sha256: ref.sha256, ...(source ?? ref.source ? { source: source ?? ref.source } : {}) };
      await this.write({ type: 'system', payload: { ref: recorded } });
    });
  }

  journalGraph(type: GraphEventType, payload: GraphPayload): Promise<void> {
    return this.runExclusive(async () => {
      await this.write({ type, payload } as EventChange);
      // A thread holding checkpoints is kept as one holding a message is.
      this.provisional = false;
    });
  }

  async setDraft(text: string | null): Promise<void> {
    checkArgument('setDraft', 'text', text, nullableText);
    return this.runExclusive(async () => {
      const draft = text ? this.redact(text) : null;
      if (draft === this.draft) return;
      await this.write({ type: 'draft', payload: { text: draft } });
      // Typed text is kept, even unsent: a session holding a draft is written like one holding a message.
      if (draft) this.provisional = false;
    });
  }

  supersedeAnswers(): Promise<{ question: Message; superseded: number } | undefined> {
    return this.runExclusive(async () => {
      const messages = this.state.messages;
      const at = messages.findLastIndex((m) => m.role === 'user');
      if (at < 0) return undefined;
      const indexes: number[] = [];
      for (let i = at + 1; i < messages.length; i++) if (messages[i]!.role === 'assistant' && !messages[i]!.superseded) indexes.push(i);
      if (indexes.length > 0) {
        await this.write({ type: 'supersede', payload: { indexes } });
      }
      return { question: messages[at]!, superseded: indexes.length };
    });
  }

  supersedeMessages(indexes: readonly number[]): Promise<void> {
    return this.runExclusive(async () => {
      const live = [...new Set(indexes)].filter((i) => Number.isInteger(i) && this.state.messages[i] !== undefined && !this.state.messages[i]!.superseded);
      if (live.length === 0) return;
      await this.write({ type: 'supersede', payload: { indexes: live } });
    });
  }

  async status(): Promise<SessionStatusReport> {
    const earlier = this.lastSave ? undefined : await this.store.snapshotInfo(this.id).catch(() => undefined);
    return statusReport({
      id: this.id,
      store: this.store,
      state: this.state,
      lock: this.lost ? { state: 'lost', reason: this.lost.message } : { state: 'held', owner: this.lock.owner },
      lastSave: this.lastSave ?? (earlier ? { ...earlier, trigger: this.state.savedBy ?? null, thisRun: false, ms: null } : null),
      unsavedEvents: this.seq - this.savedSeq,
    });
  }

  async save(options: { title?: string; ifChanged?: boolean; trigger?: StoredTrigger } = {}): Promise<SaveResult> {
    checkOptions('save', options, SAVE_OPTIONS);
    return this.runExclusive(async () => {
      await this.assertWritable();
      if (options.title !== undefined) {
        const title = cleanTitle(options.title, this.redact);
        if (title !== this.state.title || this.state.titleSource === 'auto') await this.writeTitle(title, 'user');
      }
      if (this.provisional || (options.ifChanged && !this.changed)) return this.result(false);
      await this.snapshot('open', options.trigger ?? 'save');
      return this.result(true);
    });
  }

  reset(): Promise<void> {
    return this.archive('Reset', {});
  }

  async compact(summary: string, keep: number, extra: { usage?: Usage; model?: string } = {}): Promise<void> {
    checkArgument('compact', 'summary', summary, anyText);
    checkArgument('compact', 'keep', keep, wholeNumber(0));
    return this.runExclusive(() => {
      const messages = this.state.messages;
      const kept = Math.min(keep, messages.length);
      // The live counters ride along for readers without the message bodies (listings).
      const c: Compaction = { summary: this.redact(summary), keep: kept, ...extra, stats: statsOf(messages.slice(messages.length - kept)) };
      return this.archive('Compaction', c);
    });
  }

  uncompact(): Promise<void> {
    return this.runExclusive(async () => {
      const index = lastCompaction(this.state);
      if (index === undefined) throw new NothingToUncompactError();
      if (keptLive(this.state, index) < this.state.messages.length) throw new AddedSinceCompactionError(this.id);
      return this.archive('Uncompaction', { type: 'uncompact', payload: {} });
    });
  }

  /** One `reset` (or `uncompact`) event (journaled, then applied), then a snapshot (as `/reset` always did). */
  private archive(what: string, payload: Partial<Compaction> | EventChange): Promise<void> {
    return this.runExclusive(async () => {
      await this.write('type' in payload ? payload : { type: 'reset', payload });
      // Durable in the journal now; a failed snapshot only delays folding it in.
      await this.snapshot('open', 'reset').catch((err: unknown) =>
        this.warn(`${what} done, but the snapshot failed (${err instanceof Error ? err.message : String(err)}); the journal keeps everything.`),
      );
    });
  }

  async close(): Promise<SaveResult> {
    // Outside the mutex: recording the git context takes it.
    if (!held.getStore()?.has(this)) await this.gitRecorded;
    return this.runExclusive(async () => {
      if (this.closed) return this.closed;
      if (!this.lost && this.provisional) return this.discard();
      if (!this.lost) {
        try {
          // Resumed, read, left as it was: the closed snapshot on disk already says it all.
          if (this.changed || this.savedStatus !== 'closed') await this.snapshot('closed', 'close');
          else await this.recordRow(this.state, 'closed');
        } catch (err) {
          if (!this.lost) throw err; // the loss was found by this very snapshot, which wrote nothing
        }
      }
      if (this.lost) {
        // Someone else may hold the lock now: release nothing, write nothing.
        this.closed = this.result(false);
        await this.log.close().catch(() => undefined);
        return this.closed;
      }
      await this.log.close().catch(() => undefined);
      await this.lock.release().catch((err: unknown) => this.warn(`Could not release the lock of ${this.id}: ${String(err)}`));
      this.closed = this.result(true);
      return this.closed;
    });
  }

  /** Journals an already-redacted title, then applies it. An automatic one needs no fsync: its message, which gives it again, has one. */
  private async writeTitle(title: string | null, source: TitleSource): Promise<void> {
    await this.write({ type: 'title', payload: { title, source } }, source === 'user');
  }

  /** Closing a session that never held a message: nothing is kept, its ID stays issued (docs/design.md §3). */
  private async discard(): Promise<SaveResult> {
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
  private async recordRow(state: SessionSnapshot, status: 'open' | 'closed'): Promise<void> {
    const row = withKeptAside(rowFromSnapshot(state, status), this.aside);
    await this.store.recordRow(row, this.project).catch((err: unknown) =>
      this.warn(`Could not update the session index (${String(err)}); it is rebuilt on the next listing.`),
    );
  }

  /**
   * Checks that the lock is still ours: a process thawed after the stale time may find another host's process holding it
   * before proper-lockfile's timer says so, and must not write a line into that one's session.
   */
  private async assertWritable(): Promise<void> {
    this.assertOpen();
    if (!(await this.lock.stillHeld())) this.markLockLost(new Error('another process took it over'));
    this.assertOpen();
  }

  /** A store refused a write of a superseded epoch: the lock is lost, and the write says so as any write after a loss does. */
  private fenced(err: unknown): never {
    if (!(err instanceof LockSupersededError)) throw err;
    this.markLockLost(err);
    throw new ReadOnlySessionError(this.id);
  }

  private assertOpen(): void {
    if (this.closed) throw new SessionClosedError(this.id);
    if (this.lost) throw new ReadOnlySessionError(this.id, this.lost instanceof StoreUnavailableError ? this.lost : undefined);
  }

  /**
   * Journals one event, then applies it (`applyEvent`, as a resume applies it): the in-memory
   * state changes only after the event is written. Resolves to the message it added, if any.
   */
  private async write(change: EventChange, sync = true, at = this.now()): Promise<Message | undefined> {
    await this.assertWritable();
    if (sync && change.type !== 'title') await this.flushTitle();
    const event = { seq: this.seq + 1, ts: at.toISOString(), ...change } as KnownEvent;
    await this.log.append({ ...event, id: randomBytes(9).toString('base64url') }, sync).catch((err: unknown) => this.fenced(err));
    this.seq = event.seq;
    this.changed = true;
    return applyEvent(this.state, event);
  }

  /** Snapshot (atomic), then truncate the journal it now contains, then the index row. */
  private async snapshot(status: 'open' | 'closed', trigger: SaveTrigger): Promise<void> {
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

  private result(saved: boolean): SaveResult {
    const result: SaveResult = { saved, id: this.id, messageCount: this.state.stats.messageCount, location: this.store.where(this.id).location };
    return this.provisional ? { ...result, empty: true } : result;
  }
}
