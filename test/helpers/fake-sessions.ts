/**
 * An in-memory SessionManager/Session for unit tests of the REPL and commands: the same
 * contract as the library (src/session/session-api.ts, manager-api.ts), no files, no locks.
 */
import { searchableMessages } from '../../src/search/rank.js';
import { searchMessages } from '../../src/search/search-messages.js';
import type { SearchOptions, SearchResults } from '../../src/session/search-data.js';
import { AmbiguousIdError, InvalidIdError, SessionInUseError, UnknownSessionError, type LockOwner } from '../../src/session/errors.js';
import type { ArchivedSegment, ConfigFiles, GitContext, Message, NewMessage, ProjectInfo, SessionStats, SessionSnapshot, SystemPromptRef } from '../../src/session/data.js';
import type { SessionSummary } from '../../src/session/listing.js';
import type { ReplyWriter, ResumeReport, SaveResult, Session, RetakeResult, SessionStatusReport } from '../../src/session/session-api.js';
import type { ListOptions, SessionManager } from '../../src/session/manager-api.js';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A stored session as the fake keeps it. */
interface Stored {
  id: string;
  project: string;
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
  messages: Message[];
  archived: ArchivedSegment[];
  status: 'open' | 'closed' | 'interrupted';
  heldBy?: LockOwner;
}

/** An in-memory session. */
export class FakeSession implements Session {
  readonly dir: string;
  readonly project: ProjectInfo;
  provider = { name: 'echo', model: null as string | null };
  readOnly = false;
  /** Set on a fork: where it came from. */
  parent: { id: string; at: number } | undefined;
  dirty = false;
  resumeReport: ResumeReport = { recoveredMessages: 0, wasInterrupted: false, notices: [] };
  closed = false;
  saves = 0;
  systemPrompt: SystemPromptRef | null = null;
  draft: string | null = null;
  git: GitContext | undefined = undefined;
  private readonly listeners = new Set<(message: string) => void>();

  constructor(
    private readonly stored: Stored,
    project: ProjectInfo,
    private readonly owner: FakeSessionManager,
  ) {
    this.dir = `/fake-home/projects/${project.key}/sessions/${stored.id}`;
    this.project = project;
  }
  get id(): string {
    return this.stored.id;
  }
  get where(): { location: string; files: { dir: string; snapshot: string; journal: string } } {
    return { location: `${this.dir}/session.json`, files: { dir: this.dir, snapshot: `${this.dir}/session.json`, journal: `${this.dir}/journal.jsonl` } };
  }
  get messages(): readonly Message[] {
    return this.stored.messages;
  }
  get title(): string | null {
    return this.stored.title;
  }
  get titleSource(): 'user' | undefined {
    return this.stored.title === null ? undefined : 'user';
  }
  get createdAt(): Date {
    return this.stored.createdAt;
  }
  get updatedAt(): Date {
    return this.stored.updatedAt;
  }
  get archived(): readonly ArchivedSegment[] {
    return this.stored.archived;
  }
  get stats(): SessionStats {
    return { messageCount: this.stored.messages.length, inputTokens: 0, outputTokens: 0 };
  }
  async append(message: NewMessage): Promise<Message> {
    const full: Message = { ...message, timestamp: message.timestamp ?? this.owner.now() };
    this.stored.messages.push(full);
    this.stored.updatedAt = full.timestamp;
    this.dirty = true;
    return full;
  }
  beginReply(): ReplyWriter {
    let text = '';
    return {
      get text() {
        return text;
      },
      push: async (piece) => {
        text += piece;
        return text.length;
      },
      finish: async (extra) => this.append({ role: 'assistant', content: text, ...(extra ?? {}) }),
    };
  }
  async setTitle(title: string | null): Promise<void> {
    this.stored.title = title;
  }
  async setProvider(provider: { name: string; model: string | null }): Promise<void> {
    this.provider = provider;
  }
  async setConfig(): Promise<void> {}
  async setSystemPrompt(ref: SystemPromptRef | null): Promise<void> {
    this.systemPrompt = ref;
  }
  async setDraft(text: string | null): Promise<void> {
    this.draft = text || null;
  }
  async supersedeAnswers(): Promise<{ question: Message; superseded: number } | undefined> {
    const messages = this.stored.messages;
    const at = messages.findLastIndex((m) => m.role === 'user');
    if (at < 0) return undefined;
    const answers = messages.slice(at + 1).filter((m) => m.role === 'assistant' && !m.superseded);
    for (const m of answers) m.superseded = true;
    return { question: messages[at]!, superseded: answers.length };
  }
  async status(): Promise<SessionStatusReport> {
    return {
      id: this.id,
      store: 'file',
      where: this.where,
      lock: { state: 'held', owner: { pid: 4242, host: 'this-host', startedAt: this.createdAt.toISOString() } },
      lastSave: null,
      unsavedJournalLines: 0,
      provider: this.provider,
      systemPrompt: this.systemPrompt,
      messageCount: this.messages.length,
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  }
  async save(options: { title?: string; ifChanged?: boolean } = {}): Promise<SaveResult> {
    if (options.title !== undefined) this.stored.title = options.title;
    const saved = !(options.ifChanged && !this.dirty);
    if (saved) this.saves++;
    this.dirty = false;
    return { saved, id: this.id, messageCount: this.stored.messages.length, location: `${this.dir}/session.json` };
  }
  async reset(): Promise<void> {
    await this.save();
    this.stored.archived.push({ archivedAt: this.owner.now(), messages: this.stored.messages, summary: null, stats: this.stats });
    this.stored.messages = [];
  }
  summary: string | null = null;
  async compact(summary: string, keep: number): Promise<void> {
    const cut = Math.max(0, this.stored.messages.length - keep);
    this.stored.archived.push({ archivedAt: this.owner.now(), messages: this.stored.messages.slice(0, cut), summary: this.summary, stats: this.stats });
    this.stored.messages = this.stored.messages.slice(cut);
    this.summary = summary;
  }
  async close(): Promise<SaveResult> {
    // A lost lock: the library writes nothing and says so.
    if (this.readOnly) {
      this.closed = true;
      return { saved: false, id: this.id, messageCount: this.stored.messages.length, location: `${this.dir}/session.json` };
    }
    const result = await this.save();
    this.closed = true;
    this.stored.status = 'closed';
    delete this.stored.heldBy;
    return result;
  }
  async runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }
  /** Test hook: what `retake()` answers while read-only (the lock is lost to pid 999 by default). */
  retakeResult: RetakeResult = { retaken: false, holder: { pid: 999, host: 'other-host', startedAt: '2026-11-22T14:31:00.000Z' } };
  async retake(): Promise<RetakeResult> {
    if (!this.readOnly) return { retaken: true };
    if (this.retakeResult.retaken) this.readOnly = false;
    return this.retakeResult;
  }
  copyState(): SessionSnapshot {
    return {
      format: 'chatkeep.session', schemaVersion: 2, id: this.id, title: this.title, createdAt: this.createdAt, updatedAt: this.updatedAt,
      status: this.stored.status, project: this.project.path, host: 'this-host', pid: 4242, toolVersion: '0.1.0', provider: this.provider,
      systemPrompt: this.systemPrompt, config: {}, messages: structuredClone(this.stored.messages), summary: this.summary,
      archived: structuredClone(this.stored.archived), stats: this.stats, journalSeq: 0,
    };
  }
  onWarning(listener: (message: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Test hook: raise a warning as the library would (lock compromised). */
  warn(message: string): void {
    for (const listener of this.listeners) listener(message);
  }
}

/** An in-memory session manager for one project. */
export class FakeSessionManager implements SessionManager {
  readonly home = '/fake-home';
  readonly store = { kind: 'file' as const, location: '/fake-home' };
  readonly project: ProjectInfo;
  readonly stored: Stored[] = [];
  readonly historyLines: string[] = [];
  private clock = Date.parse('2026-11-22T14:30:00Z');
  private seq = 0;

  constructor(projectPath = '/work/project') {
    this.project = { key: projectPath.replaceAll('/', '-'), path: projectPath };
  }
  now(): Date {
    return new Date(this.clock);
  }
  /** Test hook: moves the fake clock forward. */
  advance(ms: number): void {
    this.clock += ms;
  }
  /** Test hook: a stored session, optionally in another project or held by another process. */
  add(partial: Partial<Stored> & { id: string }): Stored {
    const at = this.now();
    const stored: Stored = { project: this.project.path, title: null, createdAt: at, updatedAt: at, messages: [], archived: [], status: 'closed', ...partial };
    this.stored.push(stored);
    return stored;
  }
  async create(options: { title?: string; provider?: { name: string; model: string | null } } = {}): Promise<FakeSession> {
    this.seq++;
    const stored = this.add({ id: `session-20261122-1430${String(this.seq).padStart(2, '0')}`, title: options.title ?? null, status: 'open' });
    return this.open(stored);
  }
  async resume(idOrPrefix: string): Promise<FakeSession> {
    const stored = this.find(idOrPrefix);
    if (stored.heldBy) throw new SessionInUseError(stored.id, stored.heldBy);
    return this.open(stored);
  }
  async resolve(idOrPrefix: string): Promise<{ id: string; project: string; location: string }> {
    const stored = this.find(idOrPrefix);
    return { id: stored.id, project: stored.project, location: `/fake/${stored.id}` };
  }
  async read(): Promise<never> {
    throw new Error('FakeSessionManager.read is not used by the REPL');
  }
  async inspect(): Promise<never> {
    throw new Error('FakeSessionManager.inspect is not used by the REPL');
  }
  async list(options: ListOptions = {}): Promise<SessionSummary[]> {
    const query = options.query?.toLowerCase();
    return this.stored
      .filter((s) => options.all || s.project === this.project.path)
      .filter((s) => !query || s.id.toLowerCase().includes(query) || (s.title ?? '').toLowerCase().includes(query))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
      .map((s) => ({ id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, messageCount: s.messages.length, status: s.status, project: s.project }));
  }
  async search(query: string, options: SearchOptions = {}): Promise<SearchResults> {
    const rows = await this.list({ all: options.all });
    const stored = new Map(this.stored.map((s) => [s.id, s]));
    const sessions = rows.map((summary) => ({ summary, messages: searchableMessages(stored.get(summary.id)!) }));
    return { ...searchMessages(query, sessions, options.limit), index: [] };
  }
  async latest(): Promise<SessionSummary | undefined> {
    return (await this.list())[0];
  }
  async holder(id: string): Promise<LockOwner | undefined> {
    return this.stored.find((s) => s.id === id)?.heldBy;
  }
  async fork(from: Session | string, options: { at?: number; title?: string } = {}): Promise<FakeSession> {
    const source = typeof from === 'string' ? this.find(from) : this.find(from.id);
    const at = options.at ?? source.messages.length;
    const fork = await this.create({ title: options.title ?? source.title ?? undefined });
    fork.parent = { id: source.id, at };
    for (const message of source.messages.slice(0, at)) await fork.append(message);
    return fork;
  }
  async importSession(): Promise<never> {
    throw new Error('FakeSessionManager.importSession is not used by the REPL');
  }
  // The REPL and its commands never trash anything (`/sessions` gains nothing destructive).
  async trash(): Promise<never> {
    throw new Error('FakeSessionManager.trash is not used by the REPL');
  }
  async restore(): Promise<never> {
    throw new Error('FakeSessionManager.restore is not used by the REPL');
  }
  async listTrash(): Promise<never> {
    throw new Error('FakeSessionManager.listTrash is not used by the REPL');
  }
  async emptyTrash(): Promise<never> {
    throw new Error('FakeSessionManager.emptyTrash is not used by the REPL');
  }
  readonly history = {
    load: async (): Promise<string[]> => [...this.historyLines],
    append: async (line: string): Promise<void> => {
      this.historyLines.push(line);
    },
  };
  async close(): Promise<void> {}
  async adopt(): Promise<never> {
    throw new Error('FakeSessionManager.adopt is not used by the REPL');
  }
  async storeImported(): Promise<never> {
    throw new Error('FakeSessionManager.storeImported is not used by the REPL');
  }
  async readConfig(): Promise<ConfigFiles> {
    return { user: {}, project: {} };
  }

  private open(stored: Stored): FakeSession {
    stored.heldBy = { pid: 4242, host: 'this-host', startedAt: this.now().toISOString() };
    stored.status = 'open';
    return new FakeSession(stored, { ...this.project, path: stored.project }, this);
  }
  private find(idOrPrefix: string): Stored {
    if (!ID_PATTERN.test(idOrPrefix)) throw new InvalidIdError(idOrPrefix);
    const exact = this.stored.find((s) => s.id === idOrPrefix);
    if (exact) return exact;
    const matches = this.stored.filter((s) => s.id.startsWith(idOrPrefix));
    if (matches.length === 0) throw new UnknownSessionError(idOrPrefix);
    if (matches.length > 1) throw new AmbiguousIdError(idOrPrefix, matches.map((s) => s.id));
    return matches[0]!;
  }
}
