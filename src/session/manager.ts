import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LockOwner } from './errors.js';
import { printable, UserError } from './errors.js';
import type {
  ListOptions, OpenSessionsOptions, ProjectInfo, Session, SessionManager, SessionReading, SessionSnapshot, SessionSummary,
} from './types.js';
import type { FilesReading } from './reading.js';
import type { SearchOptions, SearchResults } from '../search/types.js';
import { createHistory } from './history.js';
import { readConfigFile } from './config-files.js';
import { assertValidId, reserveId } from './ids.js';
import { ensureHome, storageProblem } from './home.js';
import { JournalWriter } from './journal.js';
import { layout } from './layout.js';
import { blankSnapshot } from './blank.js';
import type { HeldLock, LockOptions } from './lock.js';
import { forkPoint, forkState } from './fork.js';
import { acquireLock, inspectLock } from './lock.js';
import { afterFirstPrompt, whenIdle } from './defer.js';
import { openProject } from './project.js';
import { createRedactor, noRedaction } from './redact.js';
import type { Located } from './resolve.js';
import { SessionImpl } from './session.js';
import { removeMeta } from './meta-file.js';
import type { IndexRow } from './index-row.js';
import { byUpdatedDesc, summaryFromRow } from './index-row.js';
import { packageVersion } from './version.js';

const DEFAULT_STALE_MS = 20_000;

// Listing, resolving and loading are imported on first use: creating a session (the path to
// the first prompt) needs none of them.
const lazy = {
  resolve: () => import('./resolve.js'),
  load: () => import('./load.js'),
  index: () => import('./index-store.js'),
  reading: () => import('./reading.js'),
  git: () => import('./git.js'),
  search: () => import('./search-index.js'),
};

/**
 * Opens the session store at `home` for the project of `cwd` (both created as needed, 0700).
 * The returned manager creates, resumes, lists and reads sessions.
 */
export async function openSessions(options: OpenSessionsOptions): Promise<SessionManager> {
  if (options.persist === false) return (await import('./memory-manager.js')).openMemorySessions(options);
  const now = options.now ?? (() => new Date());
  let home: string;
  let project: ProjectInfo;
  try {
    home = await ensureHome(options.home);
    project = await openProject(home, options.cwd, now());
  } catch (err) {
    throw storageProblem(options.home, err);
  }
  const redact = options.redact === false ? noRedaction : createRedactor({ env: options.env ?? process.env });
  const toolVersion = options.toolVersion ?? packageVersion();
  return new Manager(home, project, redact, now, toolVersion, options.lockStaleMs ?? staleFromEnv(options.env) ?? DEFAULT_STALE_MS);
}

/**
 * `CHATKEEP_LOCK_STALE_MS`: how long a lock of a holder on another host may go without a
 * heartbeat before it is taken over (proper-lockfile's floor is 2000 ms).
 */
function staleFromEnv(env: Record<string, string | undefined> | undefined): number | undefined {
  const text = env?.CHATKEEP_LOCK_STALE_MS?.trim();
  if (text === undefined || text === '') return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 2000) {
    throw new UserError(`Bad CHATKEEP_LOCK_STALE_MS \`${printable(text)}\`: give whole milliseconds, at least 2000.`, 'E_CONFIG');
  }
  return ms;
}

/** Routes proper-lockfile's `onCompromised` to the session, also when it fires before the session exists. */
class LossRelay {
  private session: SessionImpl | undefined;
  private early: Error | undefined;
  readonly report = (err: Error): void => {
    if (this.session) this.session.markLockLost(err);
    else this.early ??= err;
  };
  attach(session: SessionImpl): void {
    this.session = session;
    if (this.early) session.markLockLost(this.early);
  }
}

class Manager implements SessionManager {
  readonly history: SessionManager['history'];

  constructor(
    readonly home: string,
    readonly project: ProjectInfo,
    private readonly redact: (text: string) => string,
    private readonly now: () => Date,
    private readonly toolVersion: string,
    private readonly staleMs: number,
  ) {
    this.history = createHistory(layout.history(project.dir), redact);
  }

  async create(options: { title?: string; provider?: { name: string; model: string | null } } = {}): Promise<Session> {
    const at = this.now();
    const { id, dir } = await reserveId(layout.ids(this.home), layout.sessions(this.project.dir), at);
    const state = blankSnapshot(id, this.project.path, at, this.toolVersion);
    // No snapshot yet: the session exists through its directory, lock and journal, and the first
    // save writes session.json. That keeps superjson and the index off the path to the first prompt.
    const session = await this.open({ id, dir, project: this.project }, state, { recoveredMessages: 0, wasInterrupted: false, notices: [] }, {
      after: 'none',
    });
    try {
      if (options.provider) await session.setProvider(options.provider, 'default');
      if (options.title) await session.setTitle(options.title);
    } catch (err) {
      await session.close().catch(() => undefined);
      throw err;
    }
    return session;
  }

  async resume(idOrPrefix: string): Promise<Session> {
    const where = await this.locate(idOrPrefix);
    const before = await inspectLock(where.dir, this.staleMs);
    let session: SessionImpl | undefined;
    const loss = new LossRelay();
    const lock = await acquireLock(where.id, where.dir, this.lockOptions(loss.report));
    try {
      // Held and about to change without a new snapshot: a listing must look at the files.
      await removeMeta(where.dir);
      const { loadSession } = await lazy.load();
      const loaded = await loadSession(where.dir, { id: where.id, projectPath: where.project.path, now: this.now(), quarantine: true });
      const report = {
        recoveredMessages: loaded.replay.recoveredMessages,
        wasInterrupted:
          before.state === 'dead' || loaded.savedStatus === 'open' || loaded.savedStatus === 'interrupted' || loaded.replay.applied > 0,
        notices: loaded.notices,
        ...(where.project.slug !== this.project.slug ? { otherProject: where.project.path } : {}),
        ...(loaded.snapshot.git ? { git: { ...loaded.snapshot.git } } : {}),
      };
      session = await this.open(where, loaded.snapshot, report, {
        lock,
        loss,
        after: loaded.damaged || loaded.replay.unfinishedReplies.length > 0 ? 'persist' : 'touch',
        dirty: loaded.replay.applied > 0,
        savedStatus: loaded.damaged ? undefined : loaded.savedStatus,
        // Journal seqs are consecutive: the lines replayed are the ones past the snapshot.
        savedSeq: loaded.replay.lastSeq - loaded.replay.applied,
      });
      return session;
    } catch (err) {
      if (!session) await lock.release().catch(() => undefined);
      throw err;
    }
  }

  /** Builds the live session around a held (or newly taken) lock. */
  private async open(
    where: Located,
    state: SessionSnapshot,
    report: SessionImpl['resumeReport'],
    options: {
      lock?: HeldLock;
      loss?: LossRelay;
      after: 'persist' | 'touch' | 'none';
      dirty?: boolean;
      savedStatus?: SessionSnapshot['status'];
      savedSeq?: number;
    },
  ): Promise<SessionImpl> {
    const loss = options.loss ?? new LossRelay();
    // A new session's directory was just made by our exclusive mkdir, so nobody can hold its
    // lock: it is taken in the background (proper-lockfile loads meanwhile) and every write
    // waits for it. A resumed session arrives with its lock held.
    const lock = options.lock
      ? Promise.resolve(options.lock)
      : afterFirstPrompt().then(() => acquireLock(where.id, where.dir, this.lockOptions(loss.report)));
    let journal: JournalWriter | undefined;
    try {
      journal = await JournalWriter.open(layout.journal(where.dir));
      const session = new SessionImpl({
        dir: where.dir,
        project: where.project,
        state,
        journal,
        lock,
        relock: (onLost) => acquireLock(where.id, where.dir, this.lockOptions(onLost)),
        report,
        redact: this.redact,
        now: this.now,
        toolVersion: this.toolVersion,
        updateRow: async (row) => (await lazy.index()).updateIndexRow(where.project.dir, row),
        // Where this run happens (git root, branch, HEAD), read from .git files (a few small
        // reads, no git process); nothing is recorded outside a work tree.
        git: lazy.git().then(({ readGitContext }) => readGitContext(this.project.path)),
        dirty: options.dirty ?? false,
        savedStatus: options.savedStatus,
        savedSeq: options.savedSeq,
      });
      loss.attach(session);
      if (options.after === 'persist') await session.persist();
      // The index row is only a cache: it is marked open while the user reads the prompt (after
      // the first request, when a line is piped: rewriting the index of 10,000 rows takes ~50 ms).
      else if (options.after === 'touch') void whenIdle().then(() => session.touchRow()).catch(() => undefined);
      return session;
    } catch (err) {
      await journal?.close().catch(() => undefined);
      await lock.then((held) => held.release()).catch(() => undefined);
      throw err;
    }
  }

  async fork(from: Session | string, options: { at?: number; title?: string } = {}): Promise<Session> {
    const source = typeof from === 'string' ? await this.read(from) : from.copyState();
    const at = forkPoint(source, options.at);
    const createdAt = this.now();
    const { id, dir } = await reserveId(layout.ids(this.home), layout.sessions(this.project.dir), createdAt);
    const title = options.title === undefined ? undefined : this.redact(options.title.trim()) || undefined;
    const state = forkState(source, at, { id, project: this.project.path, createdAt, toolVersion: this.toolVersion, ...(title ? { title } : {}) });
    const loss = new LossRelay();
    const lock = await acquireLock(id, dir, this.lockOptions(loss.report));
    // Written at once: the fork holds what exists nowhere else (after a lost lock, what was typed since).
    return this.open({ id, dir, project: this.project }, state, { recoveredMessages: 0, wasInterrupted: false, notices: [] }, {
      lock,
      loss,
      after: 'persist',
      dirty: true,
    });
  }

  private lockOptions(onCompromised: (err: Error) => void): LockOptions {
    return { staleMs: this.staleMs, now: this.now, onCompromised };
  }

  /** Finds a session by ID or unique prefix in any project (this one first). */
  private async locate(idOrPrefix: string): Promise<Located> {
    return (await lazy.resolve()).locate(this.home, this.project, idOrPrefix);
  }

  async resolve(idOrPrefix: string): Promise<{ id: string; project: string; dir: string }> {
    const where = await this.locate(idOrPrefix);
    return { id: where.id, project: where.project.path, dir: where.dir };
  }

  async read(idOrPrefix: string): Promise<SessionSnapshot> {
    const { reading, error } = await this.readFiles(idOrPrefix);
    if (!reading.snapshot) throw error;
    return { ...reading.snapshot, status: reading.status };
  }

  async inspect(idOrPrefix: string): Promise<SessionReading> {
    return (await this.readFiles(idOrPrefix)).reading;
  }

  /** The one reading of a session's files; what it finds wrong is recorded in the index, so listings say it too. */
  private async readFiles(idOrPrefix: string): Promise<FilesReading> {
    const where = await this.locate(idOrPrefix);
    const { readSessionFiles } = await lazy.reading();
    const read = await readSessionFiles(where.dir, where.id, where.project.path, { staleMs: this.staleMs, now: this.now(), stable: true });
    if (read.reading.problem && read.reading.status !== 'open') {
      // The meta file beside the snapshot describes it as it was: a rebuilt index must read the files.
      await removeMeta(where.dir).catch(() => undefined);
      await (await lazy.index()).updateIndexRow(where.project.dir, read.row).catch(() => undefined);
    }
    return read;
  }

  async list(options: ListOptions = {}): Promise<SessionSummary[]> {
    const projects = options.all ? await (await lazy.resolve()).projectsOf(this.home, this.project) : await this.listedProject(options.project);
    const { listProject } = await lazy.index();
    // Each project's rows come newest first; across projects they are merged the same way.
    const rows: IndexRow[] = [];
    for (const project of projects) rows.push(...(await listProject(project.dir, project.path, this.staleMs)));
    if (projects.length > 1) rows.sort(byUpdatedDesc);
    const query = options.query?.trim().toLowerCase();
    const shown = rows.filter(
      (r) =>
        (!query || r.id.toLowerCase().includes(query) || (r.title ?? '').toLowerCase().includes(query)) &&
        (options.branch === undefined || r.branch === options.branch),
    );
    return shown.map(summaryFromRow);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResults> {
    const projects = options.all ? await (await lazy.resolve()).projectsOf(this.home, this.project) : [this.project];
    const [{ listProject }, { searchSessions }] = await Promise.all([lazy.index(), lazy.search()]);
    const listed = projects.map((project) => ({ project, rows: () => listProject(project.dir, project.path, this.staleMs) }));
    return searchSessions(query, listed, { read: (id) => this.read(id), ...(options.limit !== undefined ? { limit: options.limit } : {}) });
  }

  /** This project, or the one whose real path is `path` (none when no session was ever kept there). */
  private async listedProject(path: string | undefined): Promise<ProjectInfo[]> {
    if (path === undefined) return [this.project];
    const wanted = await realpath(path).catch(() => resolve(path));
    if (wanted === this.project.path) return [this.project];
    const projects = await (await lazy.resolve()).projectsOf(this.home, this.project);
    return projects.filter((p) => p.path === wanted);
  }

  async latest(): Promise<SessionSummary | undefined> {
    return (await this.list())[0];
  }

  async holder(id: string): Promise<LockOwner | undefined> {
    assertValidId(id);
    const where = await this.locate(id);
    const lock = await inspectLock(where.dir, this.staleMs);
    return lock.state === 'held' ? lock.owner : undefined;
  }

  async readConfig(): Promise<{ user: Record<string, unknown>; project: Record<string, unknown> }> {
    const [user, project] = await Promise.all([
      readConfigFile(layout.userConfig(this.home)),
      readConfigFile(layout.projectConfig(this.project.dir)),
    ]);
    return { user, project };
  }
}

