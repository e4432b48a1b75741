/**
 * The memory store: a whole `SessionStore` whose sessions live in this process's memory (a
 * `MemoryBacking`), under the same contract suite as the file and PostgreSQL stores, as
 * unstorage's memory driver is. `openSessions({ persist: false })` chats over it (nothing
 * written anywhere); tests run the real manager over it. Snapshots are kept as the codec's
 * text and events as their journal lines, so what a load gives back is what the other stores
 * give back (a newer schema refused, an unknown event type kept byte for byte). It keeps no
 * search of its own: the model's generic one serves it (docs/design.md §7).
 */
import { hostname } from 'node:os';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AmbiguousIdError, LockSupersededError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import { baseIdFor } from '../../session/api/ids.js';
import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import { readEvent } from '../../session/model/future-events.js';
import type {
  EventLog, Interpreter, LoadOptions, Located, LockState, SessionEvent, SessionSource, SessionStore, SessionTrash, StoredSession, WriterLock,
} from '../../session/format/store.js';
import { HISTORY_LINES } from '../../session/format/store.js';
import type { FutureEvent, ProjectInfo, SessionSnapshot } from '../../session/api/data.js';
import type { SearchResults } from '../../session/api/search-data.js';
import type { MemoryBacking, MemoryHolder, MemorySession } from './backing.js';
import { memoryTrash } from './trash.js';


export interface MemoryStoreOptions {
  backing: MemoryBacking;
  /** This store's project (the one of the working directory it was opened for). */
  project: ProjectInfo;
  now: () => Date;
  redact: (text: string) => string;
  interpreter: Interpreter;
  /** Where a person is told the sessions are (default: `memory`). */
  location?: string;
  /** Input history typed before (`--no-persist` offers the data directory's): read at the first `history.load()`. */
  earlierHistory?: () => Promise<string[]>;
}

export class MemoryStore implements SessionStore {
  readonly kind = 'memory' as const;
  readonly location: string;
  readonly project: ProjectInfo;
  readonly trash: SessionTrash;
  readonly history: SessionStore['history'];
  private readonly backing: MemoryBacking;

  constructor(private readonly options: MemoryStoreOptions) {
    this.backing = options.backing;
    this.project = options.project;
    this.location = options.location ?? 'memory';
    this.trash = memoryTrash(this.backing, { now: options.now, read: (kept) => this.row(kept) });
    const lines = (): string[] => this.backing.history.get(this.project.key) ?? [];
    let earlier: Promise<void> | undefined;
    const seeded = (): Promise<void> =>
      (earlier ??= (options.earlierHistory?.() ?? Promise.resolve([])).then((before) => {
        if (before.length > 0) this.backing.history.set(this.project.key, [...before, ...lines()]);
      }));
    this.history = {
      load: async () => {
        await seeded();
        return lines().slice(-HISTORY_LINES);
      },
      append: (line) => {
        if (line.trim()) this.backing.history.set(this.project.key, [...lines(), options.redact(line)]);
        return Promise.resolve();
      },
    };
  }

  /** A live (not trashed) session, or the refusal a person gets for its ID. */
  private kept(id: string): MemorySession {
    const kept = this.backing.sessions.get(id);
    if (kept?.trashed) throw new TrashedSessionError(id);
    if (!kept) throw new UnknownSessionError(id);
    return kept;
  }

  private remember(project: ProjectInfo): void {
    if (!this.backing.projects.has(project.path)) this.backing.projects.set(project.path, project);
  }

  async reserveId(at: Date, project: ProjectInfo): Promise<string> {
    const base = baseIdFor(at);
    let id = base;
    for (let n = 2; this.backing.ids.has(id); n++) id = `${base}-${n}`;
    this.register(id, at, project);
    return id;
  }

  async claimId(id: string, at: Date, project: ProjectInfo): Promise<boolean> {
    return this.register(id, at, project) !== undefined;
  }

  /** Issues `id` (never issued before) to a new session of `project`; undefined when it was issued. */
  private register(id: string, createdAt: Date, project: ProjectInfo): MemorySession | undefined {
    if (this.backing.ids.has(id)) return undefined;
    this.backing.ids.add(id);
    this.remember(project);
    const session: MemorySession = { id, project, createdAt, events: [] };
    this.backing.sessions.set(id, session);
    return session;
  }

  async lock(id: string, onLost: (err: Error) => void): Promise<WriterLock> {
    const kept = this.kept(id);
    if (kept.holder?.alive) throw sessionInUse(id, kept.holder.owner, this.options.now());
    const holder: MemoryHolder = {
      owner: { pid: process.pid, host: hostname(), startedAt: this.options.now().toISOString() },
      epoch: this.backing.nextEpoch(),
      alive: true,
      onLost,
    };
    kept.holder = holder;
    return {
      owner: holder.owner,
      epoch: holder.epoch,
      stillHeld: () => Promise.resolve(kept.holder === holder),
      release: () => {
        if (kept.holder === holder) delete kept.holder;
        return Promise.resolve();
      },
    };
  }

  inspectLock(id: string): Promise<LockState> {
    return Promise.resolve(lockState(this.kept(id)));
  }

  async load(id: string, _options: LoadOptions): Promise<StoredSession> {
    const kept = this.kept(id);
    // A newer schemaVersion throws FutureSchemaError here, as in the other stores.
    const snapshot = kept.snapshot && (await (await import('../../session/format/codec.js')).decodeSnapshot(kept.snapshot.text, `${id} in memory`));
    const events: SessionEvent[] = [];
    const futureEvents: FutureEvent[] = [];
    for (const { line } of kept.events) {
      const read = readEvent(JSON.parse(line), line);
      if (read && 'known' in read) events.push(read.known);
      else if (read) futureEvents.push(read.future);
    }
    return { snapshot, events, futureEvents, damage: [], notices: [], snapshotDamaged: false, createdAt: kept.createdAt };
  }

  /** The session's holder must still be the one this lock made: else another took it over. */
  private fenced(id: string, lock: WriterLock): MemorySession {
    const kept = this.kept(id);
    if (kept.holder?.epoch !== lock.epoch) throw new LockSupersededError(id, lock.epoch ?? 0);
    return kept;
  }

  async openLog(id: string, lock: WriterLock): Promise<EventLog> {
    this.fenced(id, lock);
    return {
      append: async (event) => {
        this.fenced(id, lock).events.push({ seq: event.seq, line: JSON.stringify(event) });
      },
      compact: async (seq) => {
        const kept = this.fenced(id, lock);
        kept.events = kept.events.filter((e) => e.seq > seq);
      },
      close: async () => undefined,
    };
  }

  async discard(id: string, lock: WriterLock, options: { freeId?: boolean } = {}): Promise<void> {
    const kept = this.fenced(id, lock);
    if (kept.snapshot || kept.events.some((e) => (JSON.parse(e.line) as { type?: unknown }).type === 'message')) {
      throw new Error('it holds a message or a snapshot');
    }
    // Gone but for its ID, which stays issued (unless the program chose it).
    this.backing.sessions.delete(id);
    if (options.freeId) this.backing.ids.delete(id);
    await lock.release();
  }

  async writeSnapshot(id: string, snapshot: SessionSnapshot, lock: WriterLock): Promise<number> {
    const { encodeSnapshot } = await import('../../session/format/codec.js');
    const text = await encodeSnapshot(snapshot);
    this.fenced(id, lock).snapshot = { text, at: this.options.now() };
    return Buffer.byteLength(text);
  }

  async snapshotInfo(id: string): Promise<{ at: Date; bytes: number } | undefined> {
    const kept = this.kept(id).snapshot;
    return kept && { at: kept.at, bytes: Buffer.byteLength(kept.text) };
  }

  async recordRow(row: IndexRow): Promise<void> {
    const kept = this.backing.sessions.get(row.id);
    if (kept) kept.row = row;
  }

  async forgetRow(id: string): Promise<void> {
    const kept = this.backing.sessions.get(id);
    if (kept) delete kept.row;
  }

  async noteProblem(row: IndexRow): Promise<void> {
    await this.recordRow(row);
  }

  where(id: string): { location: string } {
    return { location: `${this.location} (session ${id})` };
  }

  async adopt(snapshot: SessionSnapshot): Promise<boolean> {
    if (this.backing.ids.has(snapshot.id)) return false;
    const project = snapshot.project === this.project.path ? this.project : this.projectOf(snapshot.project);
    const { encodeSnapshot } = await import('../../session/format/codec.js');
    // Nobody holds the new copy: it is stored closed.
    const text = await encodeSnapshot({ ...snapshot, status: 'closed' });
    const session = this.register(snapshot.id, snapshot.createdAt, project);
    if (session) session.snapshot = { text, at: this.options.now() };
    return session !== undefined;
  }

  /** A project known by its path, or a new one keyed by it. */
  private projectOf(path: string): ProjectInfo {
    return this.backing.projects.get(path) ?? { key: path, path };
  }

  async locate(wanted: string): Promise<Located> {
    const exact = this.backing.sessions.get(wanted);
    // A trashed session is not found, but the person typing its ID is told where it went: before
    // prefixes are tried, so a trashed `X` is not taken for a prefix of a live `X-2`.
    if (exact?.trashed) throw new TrashedSessionError(wanted);
    if (exact) return { id: exact.id, project: exact.project };
    const matches = [...this.backing.sessions.values()].filter((s) => !s.trashed && s.id.startsWith(wanted));
    if (matches.length === 1) return { id: matches[0]!.id, project: matches[0]!.project };
    if (matches.length > 1) throw new AmbiguousIdError(wanted, matches.map((m) => m.id).sort());
    throw new UnknownSessionError(wanted);
  }

  async projects(): Promise<ProjectInfo[]> {
    const others = new Map<string, ProjectInfo>();
    for (const s of this.backing.sessions.values()) {
      if (!s.trashed && s.project.key !== this.project.key) others.set(s.project.key, s.project);
    }
    return [this.project, ...[...others.values()].sort((a, b) => (a.key < b.key ? -1 : 1))];
  }

  async projectAt(path: string): Promise<ProjectInfo | undefined> {
    const wanted = await realpath(path).catch(() => resolve(path));
    if (wanted === this.project.path) return this.project;
    return this.backing.projects.get(wanted);
  }

  async list(projects: readonly ProjectInfo[]): Promise<IndexRow[]> {
    const keys = new Set(projects.map((p) => p.key));
    const rows: IndexRow[] = [];
    for (const kept of this.backing.sessions.values()) if (!kept.trashed && keys.has(kept.project.key)) rows.push(await this.row(kept));
    return rows.sort(byUpdatedDesc);
  }

  /** The row the model recorded, while it still tells the truth; else what the model reads from the session now. */
  private async row(kept: MemorySession): Promise<IndexRow> {
    const recorded = kept.row;
    const current = recorded && recorded.status === 'closed' && !recorded.problem && !kept.holder && kept.events.every((e) => e.seq <= recorded.journalSeq);
    if (current) return recorded;
    return (await this.read(kept)).row;
  }

  private read(kept: MemorySession): ReturnType<Interpreter['read']> {
    const source: SessionSource = { inspectLock: () => this.inspectLock(kept.id), load: (o) => this.load(kept.id, o) };
    return this.options.interpreter.read(source, kept.id, kept.project.path, { now: this.options.now(), stable: true });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Who holds the session's lock: a holder whose process is gone leaves it `dead` (free to take). */
function lockState(kept: MemorySession): LockState {
  const holder = kept.holder;
  if (!holder) return { state: 'free' };
  return holder.alive ? { state: 'held', owner: holder.owner } : { state: 'dead', owner: holder.owner, sameHost: true };
}
