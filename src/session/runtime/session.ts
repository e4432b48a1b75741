/**
 * A session held open by this process: the public API (`Session`, session-api.ts) of messages,
 * replies, titles and settings, save, reset, compaction and close, over its state and storage
 * (session-core.ts).
 */
import type { ConfigSource, ConfigValue, Message, NewMessage, SessionSnapshot, StoredTrigger, SystemPromptRef, Usage } from '../api/data.js';
import type { ReplyWriter, RetakeResult, SaveResult, Session, SessionStatusReport } from '../api/session-api.js';
import { AddedSinceCompactionError, BadOptionError, NothingToUncompactError } from '../api/errors.js';
import { lostForGood } from '../api/lost-for-good.js';
import { statsOf } from '../model/stats.js';
import { keptLive, lastCompaction } from '../model/uncompact.js';
import type { Compaction, EventChange } from '../model/events.js';
import type { GraphEventType, GraphPayload } from '../api/graph-events.js';
import { encodeMessage, storedMessage } from '../model/message-codec.js';
import { createReplyWriter, type ActiveReply } from './reply-writer.js';
import { retakeLock } from './retake.js';
import { cleanTitle } from '../api/title.js';
import { automaticTitle, firstUserMessage } from '../model/auto-title.js';
import { rowFromSnapshot } from '../format/index-row.js';
import { withKeptAside } from '../format/kept-aside.js';
import type { IndexRow } from '../api/listing.js';
import { statusReport } from './status.js';
import { anyText, checkArgument, checkOptions, nullableText, wholeNumber } from '../api/check-options.js';
import { PROVIDER, SAVE_OPTIONS } from '../api/library-options.js';
import { SessionCore, held } from './session-core.js';

/** A session held open by this process. See `Session` in types.ts. */
export class SessionImpl extends SessionCore implements Session {
  retake(): Promise<RetakeResult> {
    return this.runExclusive(async () => {
      if (!this.lost) return { retaken: true };
      if (this.closed) return { retaken: false };
      const revoked = lostForGood(this.lost);
      if (revoked) return { retaken: false, revoked };
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
}
