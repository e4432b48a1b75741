/**
 * The library's `SessionManager` (manager-api.ts): create, resume, fork, list, search, trash,
 * import and read sessions, over `ManagerCore` (manager-core.ts), which opens them.
 */
import type { KeptReport } from '../format/kept-report.js';
import type { LockOwner } from '../api/errors.js';
import type { ConfigFiles, ProjectInfo, SessionSnapshot } from '../api/data.js';
import type { SessionReading, SessionSummary } from '../api/listing.js';
import type { ResumeReport, Session } from '../api/session-api.js';
import type { CreateOptions, ImportResult, ListOptions, SessionManager } from './manager-api.js';
import type { CacheFix, TrashedSession } from '../format/store.js';
import { AmbiguousIdError, SessionExistsError, UnknownSessionError } from '../api/errors.js';
import { PrefixNotIdError } from '../api/adapter-errors.js';
import { anyText, checkArgument, checkOptions, sessionId } from '../api/check-options.js';
import { CREATE_OPTIONS, EMPTY_TRASH_OPTIONS, FORK_OPTIONS, LIST_OPTIONS, OPEN_SESSION_OPTIONS, SEARCH_OPTIONS } from '../api/library-options.js';
import { heldIdsHere, placeOf } from './held-here.js';
import { assertValidId } from '../api/ids.js';
import type { SearchOptions, SearchResults } from '../api/search-data.js';
import { blankSnapshot } from '../format/blank.js';
import { forkPoint, forkGraph, forkState, forkView, type ForkFrom } from './fork.js';
import { SessionImpl } from './session.js';
import { byUpdatedDesc, rowFromSnapshot, summaryFromRow } from '../format/index-row.js';
import { FRESH, ManagerCore, lazy } from './manager-core.js';

/** One project's sessions in one store, plus lookups across every project. */
export class Manager extends ManagerCore implements SessionManager {
  /** Resolves once the session holds its lock: every promise of the library holds from then on. */
  async create(options: CreateOptions = {}): Promise<Session> {
    checkOptions('create', options, CREATE_OPTIONS);
    const at = this.parts.now();
    const chosen = options.id !== undefined;
    if (chosen) this.refuseHeldHere(options.id!);
    if (chosen && !(await this.live.claimId(options.id!, at, this.project))) throw new SessionExistsError(options.id!);
    const id = options.id ?? (await this.live.reserveId(at, this.project));
    // No snapshot yet: the session exists through its reserved ID, lock and events, and the first
    // save writes the snapshot. That keeps the codec and the index off the path to the first prompt.
    const state = blankSnapshot(id, this.project.path, at, this.parts.toolVersion);
    const session = await this.open({ id, project: this.project }, state, FRESH, { after: 'none', provisional: true, chosenId: chosen });
    try {
      if (options.provider) await session.setProvider(options.provider, 'default');
      if (options.title) await session.setTitle(options.title);
    } catch (err) {
      await session.close().catch(() => undefined);
      throw err;
    }
    return session;
  }

  async openOrCreate(id: string, options: Omit<CreateOptions, 'id'> = {}): Promise<Session> {
    checkArgument('openOrCreate', 'id', id, sessionId);
    checkOptions('openOrCreate', options, OPEN_SESSION_OPTIONS);
    const found = await this.locate(id).catch((err: unknown) => {
      if (err instanceof UnknownSessionError) return undefined;
      if (err instanceof AmbiguousIdError) throw new PrefixNotIdError(id, err.matches);
      throw err;
    });
    // Resumed as it is (the options are for a new one). The ID is exact: the start of a longer
    // one is refused, neither taken for it nor made a second session named like it.
    if (found && found.id !== id) throw new PrefixNotIdError(id, [found.id]);
    return found ? this.resumeAt(found) : this.create({ ...options, id });
  }

  async resume(idOrPrefix: string): Promise<Session> {
    checkArgument('resume', 'idOrPrefix', idOrPrefix, anyText);
    return this.resumeAt(await this.locate(idOrPrefix));
  }

  async rename(idOrPrefix: string, title: string): Promise<string | null> {
    checkArgument('rename', 'title', title, anyText);
    // Not used here: where this process runs (its git work tree) is not recorded in it.
    const session = await this.resumeAt(await this.locate(idOrPrefix), { usedHere: false });
    try {
      await session.setTitle(title);
      return session.title;
    } finally {
      await session.close();
    }
  }

  async fork(from: Session | string, options: { at?: number; title?: string } & ForkFrom = {}): Promise<Session> {
    checkOptions('fork', options, FORK_OPTIONS);
    const source = forkView(typeof from === 'string' ? await this.read(from) : from.copyState(), options);
    const at = forkPoint(source, options.at);
    const createdAt = this.parts.now();
    const id = await this.live.reserveId(createdAt, this.project);
    const title = options.title === undefined ? undefined : this.parts.redact(options.title.trim()) || undefined;
    const state = forkState(source, at, { id, project: this.project.path, createdAt, toolVersion: this.parts.toolVersion, ...(title ? { title } : {}) });
    if (at === source.messages.length && options.archived === undefined && !options.uncompact) forkGraph(source, state);
    // Written at once: the fork holds what exists nowhere else (after a lost lock, what was typed since).
    const report: ResumeReport = { ...FRESH, forkedFrom: { id: source.id, at } };
    return this.open({ id, project: this.project }, state, report, { after: 'fork', dirty: true });
  }

  /**
   * Writes an imported session (checked by the caller): under its own ID when that was never
   * issued here, else under a new one, recording the old as `importedFrom`. Redacted like typed text.
   */
  async importSession(snapshot: SessionSnapshot): Promise<ImportResult> {
    const wanted = assertValidId(snapshot.id);
    const { importedState } = await lazy.importing();
    const target = { project: this.project, redact: this.parts.redact, toolVersion: this.parts.toolVersion };
    if (await this.live.adopt(importedState(snapshot, { ...target, id: wanted }))) return { id: wanted };
    const id = await this.live.reserveId(this.parts.now(), this.project);
    const state = importedState(snapshot, { ...target, id });
    // The lock is held only while the snapshot is written: a loss then has nothing to stop.
    const lock = await this.live.lock(id, () => undefined);
    try {
      await this.live.writeSnapshot(id, state, lock);
      await this.live.recordRow(rowFromSnapshot(state, 'closed'), this.project).catch(() => undefined);
    } finally {
      await lock.release();
    }
    return { id, importedFrom: wanted };
  }

  async storeImported(snapshot: SessionSnapshot, options: { replace?: boolean } = {}): Promise<boolean> {
    const id = assertValidId(snapshot.id);
    const state = (await lazy.importing()).redactSnapshot({ ...snapshot, status: 'closed' }, this.parts.redact);
    if (!options.replace) return this.live.adopt(state);
    const { project } = await this.locate(id);
    const lock = await this.live.lock(id, () => undefined);
    try {
      await this.live.writeSnapshot(id, state, lock);
      await this.live.recordRow(rowFromSnapshot(state, 'closed'), project).catch(() => undefined);
    } finally {
      await lock.release();
    }
    return true;
  }

  async trash(idOrPrefix: string): Promise<TrashedSession> {
    const { id } = await this.locate(idOrPrefix);
    this.refuseHeldHere(id);
    return this.live.trash.put(id);
  }

  async restore(idOrPrefix: string): Promise<{ id: string; project: string }> {
    const restored = await this.live.trash.restore(await this.trashedId(idOrPrefix));
    return { id: restored.id, project: restored.project.path };
  }

  /**
   * The trashed session an ID or unique ID prefix names. An exact ID is exact: one in the trash
   * wins, and the ID of a live session is never taken for a prefix of a trashed one (restoring `X`
   * twice must not bring back `X-2`). What is not in the trash is left for `restore` to refuse.
   */
  private async trashedId(idOrPrefix: string): Promise<string> {
    const wanted = assertValidId(idOrPrefix);
    const matches = (await this.live.trash.list()).map((t) => t.id).filter((id) => id.startsWith(wanted));
    if (matches.includes(wanted) || matches.length === 0) return wanted;
    // A live session of exactly this ID (unknown, ambiguous or unreadable: none).
    if (await this.live.locate(wanted).then((live) => live.id === wanted, () => false)) return wanted;
    if (matches.length > 1) throw new AmbiguousIdError(wanted, matches.sort());
    return matches[0]!;
  }

  async listTrash(): Promise<TrashedSession[]> {
    return this.live.trash.list();
  }

  async emptyTrash(options: { olderThan?: Date } = {}): Promise<string[]> {
    checkOptions('emptyTrash', options, EMPTY_TRASH_OPTIONS);
    return this.live.trash.empty(options.olderThan);
  }

  async resolve(idOrPrefix: string): Promise<{ id: string; project: string; location: string }> {
    const where = await this.locate(idOrPrefix);
    return { id: where.id, project: where.project.path, location: this.live.where(where.id).location };
  }

  async read(idOrPrefix: string): Promise<SessionSnapshot> {
    const { reading, error } = await this.readStored(idOrPrefix);
    if (!reading.snapshot) throw error;
    return { ...reading.snapshot, status: reading.status };
  }

  async inspect(idOrPrefix: string): Promise<SessionReading> {
    return (await this.readStored(idOrPrefix)).reading;
  }

  async keptAside(idOrPrefix: string): Promise<KeptReport[]> {
    const { reading } = await this.readStored(idOrPrefix);
    const parts = (await this.live.keptAside?.read(reading.id)) ?? [];
    const { keptReport } = await import('../format/kept-report.js');
    return reading.snapshot ? keptReport(parts, reading.snapshot) : [];
  }

  async checkCaches(idOrPrefix?: string): Promise<CacheFix[]> {
    const where = idOrPrefix === undefined ? undefined : await this.locate(idOrPrefix);
    const projects = where ? [where.project] : await this.live.projects();
    return (await this.live.checkCaches?.(projects, where?.id)) ?? [];
  }

  async forgetKeptAside(idOrPrefix: string): Promise<number> {
    const where = await this.locate(idOrPrefix);
    const n = (await this.live.keptAside?.forget(where.id)) ?? 0;
    // The stored row said `recovered`: read again, it is recorded as it is now.
    const read = await this.readStored(where.id);
    if (!read.reading.problem && read.reading.status !== 'open') await this.live.recordRow(read.row, where.project).catch(() => undefined);
    return n;
  }

  async list(options: ListOptions = {}): Promise<SessionSummary[]> {
    checkOptions('list', options, LIST_OPTIONS);
    const projects = options.all ? await this.live.projects() : await this.listedProject(options.project);
    // The newest rows alone when nothing filters them by text; a second, full read when the
    // newest ones hold too few that are shown (sessions without a message are left out) and
    // the store may have more.
    const filtered = Boolean(options.query?.trim()) || options.branch !== undefined;
    if (options.limit !== undefined && !filtered) {
      const head = await this.listRows(projects, options, options.limit);
      if (head && (head.rows.length >= options.limit || head.every)) return head.rows.slice(0, options.limit);
    }
    const all = (await this.listRows(projects, options, undefined, options.limit))!.rows;
    return options.limit === undefined ? all : all.slice(0, options.limit);
  }

  /**
   * With `newest`, undefined when a session this process holds is not among the rows read (it may
   * be newer than they are). `check`: how many rows the caller shows (the store checks their caches).
   * `every`: the store gave every row it has (fewer than `newest`: a store gives that many when
   * each project has them), so a full read would list the same.
   */
  private async listRows(projects: readonly ProjectInfo[], options: ListOptions, newest?: number, check = newest): Promise<{ rows: SessionSummary[]; every: boolean } | undefined> {
    const { completeRows, holdsMessage } = await lazy.listing();
    const { discardOrphans } = await lazy.orphans();
    const read = await this.live.list(projects, { ...(newest !== undefined ? { newest } : {}), ...(check ? { shown: check } : {}) });
    if (newest !== undefined) {
      const ids = new Set(read.map((r) => r.id));
      if (heldIdsHere(placeOf(this.live)).some((id) => !ids.has(id))) return undefined;
    }
    const found = await discardOrphans(this.live, read);
    const stored = await completeRows(found, (id) => this.read(id).catch(() => undefined), this.parts.redact);
    // A session this process holds is listed as it is here and now, not as the store had it at its last snapshot.
    let live = false;
    const rows = stored.map((row) => {
      const held = this.opened(row.id) as SessionImpl | undefined;
      live ||= held !== undefined;
      return held?.liveRow() ?? row;
    });
    // Newest first, as the store gave them: a live session may have changed since its row.
    if (live) rows.sort(byUpdatedDesc);
    const query = options.query?.trim().toLowerCase();
    const shown = rows.filter(
      (r) =>
        (options.empty === true || holdsMessage(r)) &&
        (!query || r.id.toLowerCase().includes(query) || (r.title ?? r.derivedTitle ?? '').toLowerCase().includes(query)) &&
        (options.branch === undefined || r.branch === options.branch),
    );
    return { rows: shown.map(summaryFromRow), every: newest === undefined || read.length < newest };
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResults> {
    checkArgument('search', 'query', query, anyText);
    checkOptions('search', options, SEARCH_OPTIONS);
    const projects = options.all ? await this.live.projects() : [this.project];
    return this.live.searchSessions(query, projects, { ...(options.limit !== undefined ? { limit: options.limit } : {}), ...(options.snippets === false ? { snippets: false } : {}) });
  }

  /** This project, or the one whose real path is `path` (none when no session was ever kept there). */
  private async listedProject(path: string | undefined): Promise<ProjectInfo[]> {
    if (path === undefined) return [this.project];
    const project = await this.live.projectAt(path);
    return project ? [project] : [];
  }

  async latest(): Promise<SessionSummary | undefined> {
    return (await this.list({ limit: 1 }))[0];
  }

  async holder(id: string): Promise<LockOwner | undefined> {
    const where = await this.locate(id);
    const lock = await this.live.inspectLock(where.id);
    return lock.state === 'held' ? lock.owner : undefined;
  }

  readConfig(): Promise<ConfigFiles> {
    return this.parts.readConfig();
  }

  async adopt(snapshot: SessionSnapshot): Promise<boolean> {
    assertValidId(snapshot.id);
    return this.live.adopt(snapshot);
  }
}
