/**
 * The file store (docs/design.md §8): sessions under the data directory, the default. Each session is
 * a directory `projects/<slug>/sessions/<id>/` with `session.json` (snapshot), `journal.jsonl`
 * (events since it), the lock and its owner file; listings read `index.json` and the
 * `session.meta.json` caches, which the session files can always rebuild.
 */
import { realpath, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { IndexRow } from '../../session/api/listing.js';
import { byUpdatedDesc } from '../../session/format/index-row.js';
import type { CacheFix, EventLog, Interpreter, LoadOptions, Located, LockState, SessionStore, SessionTrash, StoredSession, WriterLock } from '../../session/format/store.js';
import { LockSupersededError } from '../../session/api/errors.js';
import type { ProjectInfo, SessionSnapshot } from '../../session/api/data.js';
import type { SearchResults } from '../../session/api/search-data.js';
import { createHistory } from './history.js';
import { ensureHome, storageProblem } from './home.js';
import { claimId, reserveId } from './ids.js';
import { AdoptBatches } from './adopt-batch.js';
import { JournalWriter } from './journal.js';
import { layout } from './layout.js';
import { acquireLock, inspectLock, type HeldLock } from './lock.js';
import { errno } from '../../util/errno.js';
import { removeMeta, writeMeta } from './meta-file.js';
import { findProject, openProject, type FileProject } from './project.js';
import { snapshotFileInfo } from './snapshot-store.js';
import { snapshotStamp, stamped } from './snapshot-stamp.js';
import { compactJournal, writeSnapshotCompacting, type OpenJournal } from './snapshot-compaction.js';
import { lazyTrash } from '../lazy-trash.js';
import { once } from '../../util/once.js';

// Listing, resolving and loading are imported on first use: creating a session (the path to
// the first prompt) needs none of them. Each import is kept: an `import()` of a module already
// loaded still resolves it again (a tenth of a small listing's CPU).
const lazy = {
  resolve: once(() => import('./resolve.js')),
  index: once(() => import('./index-store.js')),
  load: once(() => import('./load.js')),
  trash: once(() => import('./trash.js')),
  search: once(() => import('./search/search-index.js')),
  source: once(() => import('./summary.js')),
  discard: once(() => import('./discard.js')),
  kept: once(() => import('./kept-aside.js')),
  caches: once(() => import('./cache-check.js')),
};

export interface FileStoreOptions {
  /** The data directory; created 0700 when missing. */
  home: string;
  cwd: string;
  now: () => Date;
  /** How long a lock of a holder on another host may go without a heartbeat before it is taken over. */
  staleMs: number;
  redact: (text: string) => string;
  /** What the model makes of a session, for the listing cache and the search index. */
  interpreter: Interpreter;
}

/**
 * Opens the data directory (made as needed) and finds the project of `cwd` in it. The project's
 * directory is created by the first write (a session, an import, a history line), so listing,
 * showing, searching and failing create nothing (docs/design.md §8).
 */
export async function openFileStore(options: FileStoreOptions): Promise<FileStore> {
  try {
    const home = await ensureHome(options.home);
    const project = await findProject(home, options.cwd);
    return new FileStore(home, project, options);
  } catch (err) {
    throw storageProblem(options.home, err);
  }
}

export class FileStore implements SessionStore {
  readonly kind = 'file' as const;
  readonly history: SessionStore['history'];
  readonly trash: SessionTrash;
  /** Session directories by ID, for the sessions this process reserved or located. */
  private readonly dirs = new Map<string, string>();
  /** The journals of the sessions this process writes, by ID (a snapshot compacts them). */
  private readonly journals = new Map<string, OpenJournal>();
  /** Sessions stored whole (import, copies), committed by the batch. */
  private batches: AdoptBatches | undefined;
  /** This project's directory being claimed (project.json written), once a write needs it. */
  private claim: Promise<FileProject> | undefined;

  constructor(
    readonly location: string,
    private current: FileProject,
    private readonly options: FileStoreOptions,
  ) {
    const history = (dir: string) => createHistory(layout.history(dir), options.redact);
    this.history = {
      load: () => history(this.current.dir).load(),
      append: async (line) => history(await this.claimed(this.current)).append(line),
    };
    this.trash = lazyTrash(async () =>
      (await lazy.trash()).fileTrash(this.location, this.project, { staleMs: options.staleMs, now: options.now, interpreter: options.interpreter }),
    );
  }

  get project(): FileProject {
    return this.current;
  }

  /** The directory of `project`; this store's own is claimed first when nothing was written there yet. */
  private async claimed(project: ProjectInfo): Promise<string> {
    if (project.path !== this.current.path) return this.projectDir(project);
    this.claim ??= openProject(this.location, this.current.path, this.options.now()).then(
      (claimed) => (this.current = claimed),
      (err: unknown) => {
        this.claim = undefined;
        throw storageProblem(this.options.home, err);
      },
    );
    return (await this.claim).dir;
  }

  private projectDir(project: ProjectInfo): string {
    return layout.project(this.location, project.key);
  }

  /** The directory of a session this store has reserved or located (every caller locates first). */
  private dir(id: string): string {
    const dir = this.dirs.get(id);
    if (dir === undefined) throw new Error(`file store: session ${id} was not located before use`);
    return dir;
  }

  async reserveId(at: Date, project: ProjectInfo): Promise<string> {
    const { id, dir } = await reserveId(layout.ids(this.location), layout.sessions(await this.claimed(project)), at);
    this.dirs.set(id, dir);
    return id;
  }

  async claimId(id: string, _at: Date, project: ProjectInfo): Promise<boolean> {
    const dir = await claimId(layout.ids(this.location), layout.sessions(await this.claimed(project)), id);
    if (dir === undefined) return false;
    this.dirs.set(id, dir);
    return true;
  }

  async lock(id: string, onLost: (err: Error) => void): Promise<WriterLock> {
    try {
      const lock = await acquireLock(id, this.dir(id), { staleMs: this.options.staleMs, now: this.options.now, onCompromised: onLost });
      // A session of this project is about to be written: the project is claimed as a new
      // session claims it, so a damaged project.json is kept aside and the path recorded again
      // (until then no other directory's listing can say whose sessions these are).
      if (dirname(dirname(this.dir(id))) === this.current.dir) await this.claimed(this.current).catch(async (err: unknown) => {
        await lock.release().catch(() => undefined);
        throw err;
      });
      return lock;
    } catch (err) {
      // Moved (to the trash) or removed since it was located: say where it is now, as locating
      // it afresh does (in the trash, or unknown), rather than the guard's ENOENT.
      if (errno(err) === 'ENOENT') await this.locate(id);
      throw err;
    }
  }

  inspectLock(id: string): Promise<LockState> {
    return inspectLock(this.dir(id), this.options.staleMs);
  }

  async load(id: string, options: LoadOptions): Promise<StoredSession> {
    const { loadSession, loadSessionStable } = await lazy.load();
    return (options.stable ? loadSessionStable : loadSession)(this.dir(id), options);
  }

  async openLog(id: string, lock: WriterLock): Promise<EventLog> {
    const fence = fenceOf(id, lock);
    const journal = await JournalWriter.open(layout.journal(this.dir(id)));
    const open: OpenJournal = { writer: journal };
    this.journals.set(id, open);
    return {
      // Checked without the guard (a guard per turn would double its cost): one read of the owner file.
      append: async (event, sync) => {
        fence.assertCurrent();
        await journal.append(event, sync);
        // Frozen between the check and the write while another host took over: the line went to a journal no longer the session's.
        if (journal.replaced()) throw new LockSupersededError(id, fence.epoch);
      },
      // The journal holds nothing past the snapshot when the model compacts it: it is emptied
      // (by the snapshot's own guard hold, or now), or left for a later snapshot (snapshot-compaction.ts).
      compact: (seq) => compactJournal(open, seq, fence),
      close: () => {
        if (this.journals.get(id) === open) this.journals.delete(id);
        return journal.close();
      },
    };
  }

  async discard(id: string, lock: WriterLock, options: { freeId?: boolean } = {}): Promise<void> {
    const gone = await (await lazy.discard()).discardSession(this.dir(id), lock, this.options.staleMs);
    if (gone && options.freeId) await rm(join(layout.ids(this.location), id), { force: true });
  }

  writeSnapshot(id: string, snapshot: SessionSnapshot, lock: WriterLock): Promise<number> {
    return writeSnapshotCompacting(this.dir(id), snapshot, fenceOf(id, lock), this.journals.get(id));
  }

  snapshotInfo(id: string): Promise<{ at: Date; bytes: number } | undefined> {
    return snapshotFileInfo(this.dir(id));
  }

  async recordRow(row: IndexRow, project: ProjectInfo): Promise<void> {
    const projectDir = this.projectDir(project);
    // The snapshot just written is in place: its stamp lets a listing trust this row until it changes.
    const recorded = stamped(row, snapshotStamp(this.dir(row.id)));
    await Promise.all([writeMeta(this.dir(row.id), recorded), (await lazy.index()).updateIndexRow(projectDir, recorded)]);
  }

  forgetRow(id: string): Promise<void> {
    return removeMeta(this.dir(id));
  }

  async noteProblem(row: IndexRow, project: ProjectInfo): Promise<void> {
    // The meta file beside the snapshot describes it as it was: a rebuilt index must read the files.
    await removeMeta(this.dir(row.id)).catch(() => undefined);
    await (await lazy.index()).updateIndexRow(this.projectDir(project), row);
  }

  readonly keptAside = {
    read: async (id: string) => (await lazy.kept()).readKept(this.dir(id)),
    forget: async (id: string) => (await lazy.kept()).forgetKept(this.dir(id)),
  };

  async checkCaches(projects: readonly ProjectInfo[], only?: string): Promise<CacheFix[]> {
    const { checkProjectCaches } = await lazy.caches();
    const fixes: CacheFix[] = [];
    for (const project of projects) fixes.push(...(await checkProjectCaches(this.projectDir(project), project, this.options, only)));
    return fixes;
  }

  where(id: string): { location: string; files: { dir: string; snapshot: string; journal: string } } {
    const dir = this.dir(id);
    return { location: layout.snapshot(dir), files: { dir, snapshot: layout.snapshot(dir), journal: layout.journal(dir) } };
  }

  async adopt(snapshot: SessionSnapshot): Promise<boolean> {
    const project = snapshot.project === this.current.path ? this.current : await openProject(this.location, snapshot.project, this.options.now());
    const projectDir = await this.claimed(project);
    // Nobody holds the new copy: it is stored closed. Stored by the batch (adopt-batch.ts).
    this.batches ??= new AdoptBatches(layout.ids(this.location), async (done) => {
      const { updateIndexRows } = await lazy.index();
      for (const { projectDir: dir, rows } of done) await updateIndexRows(dir, rows);
    });
    // Only the ID is held while the batch commits (the snapshot is garbage once written).
    const id = snapshot.id;
    if (!(await this.batches.adopt({ ...snapshot, status: 'closed' }, projectDir))) return false;
    this.dirs.set(id, join(layout.sessions(projectDir), id));
    return true;
  }

  async locate(idOrPrefix: string): Promise<Located> {
    const where = await (await lazy.resolve()).locate(this.location, this.project, idOrPrefix);
    this.dirs.set(where.id, where.dir);
    return { id: where.id, project: where.project };
  }

  async projects(): Promise<ProjectInfo[]> {
    return (await lazy.resolve()).projectsOf(this.location, this.project);
  }

  async projectAt(path: string): Promise<ProjectInfo | undefined> {
    const wanted = await realpath(path).catch(() => resolve(path));
    if (wanted === this.project.path) return this.project;
    return (await this.projects()).find((p) => p.path === wanted);
  }

  async list(projects: readonly ProjectInfo[], options: { newest?: number; shown?: number } = {}): Promise<IndexRow[]> {
    const { listProject } = await lazy.index();
    // Each project's rows come newest first; across projects they are merged the same way.
    const rows: IndexRow[] = [];
    for (const project of projects) rows.push(...(await listProject(this.projectDir(project), project.path, this.options, options.newest, options.shown ?? options.newest)));
    if (projects.length > 1) rows.sort(byUpdatedDesc);
    return rows;
  }

  async searchSessions(query: string, projects: readonly ProjectInfo[], options: { limit?: number; snippets?: boolean }): Promise<SearchResults> {
    const { searchSessions } = await lazy.search();
    const dirs = projects.map((p) => ({ ...p, dir: this.projectDir(p) }));
    return searchSessions(query, dirs, { read: (id) => this.readSnapshot(id), reader: this.options, ...(options.limit !== undefined ? { limit: options.limit } : {}), ...(options.snippets === false ? { snippets: false } : {}) });
  }

  /** A session as a lock-free reading gives it (for the search index). */
  private async readSnapshot(id: string): Promise<SessionSnapshot> {
    const where = await this.locate(id);
    const { sourceAt } = await lazy.source();
    const read = await this.options.interpreter.read(sourceAt(this.dir(id), this.options.staleMs), id, where.project.path, { now: this.options.now(), stable: true });
    if (!read.reading.snapshot) throw read.error;
    return { ...read.reading.snapshot, status: read.reading.status };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The file lock behind a `WriterLock` this store handed out: its writes go through its fence. */
function fenceOf(id: string, lock: WriterLock): HeldLock {
  const held = lock as Partial<HeldLock>;
  if (typeof held.fence !== 'function' || typeof held.assertCurrent !== 'function') throw new Error(`Session ${id}'s lock is not a file store lock.`);
  return lock as HeldLock;
}
