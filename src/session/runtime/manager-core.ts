/**
 * Opening sessions (docs/design.md §10, §11): the store as the model uses it, a session found,
 * loaded, locked and replayed, or created, and the refusals of a session held here already.
 * `Manager` (manager.ts) is the library's `SessionManager` built on it.
 */
import type { ConfigFiles, ProjectInfo, SessionSnapshot } from '../api/data.js';
import type { ResumeReport, Session } from '../api/session-api.js';
import type { SessionManager } from './manager-api.js';
import type { Located, Reading, SessionStore, WriterLock, SearchRows } from '../format/store.js';
import { withDefaults, type WholeStore } from './store-defaults.js';
import { SessionOpenHereError, SessionsClosedError } from '../api/errors.js';
import { heldHere, noteHeld, placeOf } from './held-here.js';
import { assertValidId } from '../api/ids.js';
import { whenIdle } from '../../util/defer.js';
import { once } from '../../util/once.js';
import { SessionImpl } from './session.js';

// Loading and reading are imported on first use: creating a session (the path to the first
// prompt) needs neither. Each kept once loaded: an `import()` resolves the module again each call.
export const lazy = {
  reading: once(() => import('./reading.js')),
  importing: once(() => import('../model/imported-state.js')),
  listing: once(() => import('../format/listed-rows.js')),
  orphans: once(() => import('./orphans.js')),
};

/** What the manager is built from (the library's `openSessions` assembles it). */
export interface ManagerParts {
  store: SessionStore;
  /** The local data directory (config files live there, whichever store keeps the sessions). */
  home: string;
  redact: (text: string) => string;
  now: () => Date;
  toolVersion: string;
  readConfig(): Promise<ConfigFiles>;
  /** Where this run happens (git root, branch, HEAD), read as the session opens; recorded when known. */
  gitContext(): Promise<SessionSnapshot['git']>;
  /** The generic search, for a store without its own (src/search/generic-search.ts). */
  searchRows: SearchRows;
}

/** Routes a lost lock to the session, also when it is lost before the session exists. */
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

export const FRESH: ResumeReport = { recoveredMessages: 0, wasInterrupted: false, notices: [] };

/** What every `Manager` is made of (see manager.ts for the API). */
export abstract class ManagerCore {
  readonly home: string;
  readonly history: SessionManager['history'];
  readonly store: WholeStore;
  protected closed = false;

  constructor(protected readonly parts: ManagerParts) {
    // A store provides its core; what it leaves out the model does for it (store-defaults.ts).
    this.store = withDefaults(parts.store, parts);
    this.home = parts.home;
    this.history = this.store.history;
  }

  /** The store's, read each time: a file store names its project for good at the first write. */
  get project(): ProjectInfo {
    return this.store.project;
  }

  /**
   * The session an ID or unique ID prefix from outside names: the one place it is validated, before
   * a store builds a path or a query from it.
   */
  protected locate(idOrPrefix: string): Promise<Located> {
    return this.live.locate(assertValidId(idOrPrefix));
  }

  /** Resumes the session found at `where` (`usedHere` false: for one change, not to work in here). */
  protected async resumeAt(where: Located, how: { usedHere: boolean } = { usedHere: true }): Promise<Session> {
    this.refuseHeldHere(where.id);
    const before = await this.live.inspectLock(where.id);
    const loss = new LossRelay();
    const lock = await this.live.lock(where.id, loss.report);
    let session: SessionImpl | undefined;
    try {
      // Held and about to change without a new snapshot: a listing must look at the session itself.
      await this.live.forgetRow(where.id);
      const { loadFrom, statusFrom } = await lazy.reading();
      const loaded = await loadFrom({ load: (o) => this.live.load(where.id, o) }, where.id, where.project.path, {
        now: this.parts.now(),
        quarantine: true,
      });
      const damaged = loaded.stored.damage.length > 0;
      const report: ResumeReport = {
        recoveredMessages: loaded.replay.recoveredMessages,
        wasInterrupted: statusFrom(loaded.savedStatus, before, loaded.replay.applied > 0) === 'interrupted',
        notices: loaded.stored.notices,
        ...(where.project.key !== this.project.key ? { otherProject: where.project.path } : {}),
        ...(loaded.snapshot.git ? { git: { ...loaded.snapshot.git } } : {}),
      };
      session = await this.open(where, loaded.snapshot, report, {
        lock,
        loss,
        after: damaged || loaded.renamed || loaded.replay.unfinishedReplies.length > 0 ? 'persist' : 'touch',
        dirty: loaded.replay.applied > 0,
        savedStatus: damaged ? undefined : loaded.savedStatus,
        // Event seqs are consecutive: the events replayed are the ones past the snapshot.
        savedSeq: loaded.replay.lastSeq - loaded.replay.applied,
        usedHere: how.usedHere,
        aside: loaded.stored.aside,
      });
      return session;
    } catch (err) {
      if (!session) await lock.release().catch(() => undefined);
      throw err;
    }
  }

  /** Builds the live session around its lock (taken here for a new session). */
  protected async open(
    where: Located,
    state: SessionSnapshot,
    report: ResumeReport,
    options: {
      lock?: WriterLock;
      loss?: LossRelay;
      after: 'persist' | 'fork' | 'touch' | 'none';
      dirty?: boolean;
      savedStatus?: SessionSnapshot['status'];
      savedSeq?: number;
      provisional?: boolean;
      chosenId?: boolean;
      /** False: this run's git work tree is not recorded (the session is changed from here, not used here). */
      usedHere?: boolean;
      aside?: string[] | undefined;
    },
  ): Promise<SessionImpl> {
    const loss = options.loss ?? new LossRelay();
    const lock = options.lock ?? (await this.live.lock(where.id, loss.report));
    try {
      const log = await this.live.openLog(where.id, lock);
      const session = new SessionImpl({
        store: this.live,
        project: where.project,
        state,
        log,
        lock,
        report,
        redact: this.parts.redact,
        now: this.parts.now,
        toolVersion: this.parts.toolVersion,
        ...(options.usedHere === false ? {} : { git: this.parts.gitContext() }),
        dirty: options.dirty ?? false,
        savedStatus: options.savedStatus,
        savedSeq: options.savedSeq,
        provisional: options.provisional,
        chosenId: options.chosenId,
        ...(options.aside?.length ? { aside: options.aside } : {}),
      });
      loss.attach(session);
      noteHeld(placeOf(this.live), session);
      if (options.after === 'persist' || options.after === 'fork') await session.persist(options.after === 'fork' ? 'fork' : 'recovery');
      // The listing row is only a cache: it is marked open while the user reads the prompt (after
      // the first request, when a line is piped: rewriting an index of 10,000 rows takes ~50 ms).
      else if (options.after === 'touch') void whenIdle().then(() => session.touchRow()).catch(() => undefined);
      return session;
    } catch (err) {
      if (!options.lock) await lock.release().catch(() => undefined);
      throw err;
    }
  }

  opened(id: string): Session | undefined {
    return heldHere(placeOf(this.live), id);
  }

  /** A session this process holds is refused as such, not as one another process holds. */
  protected refuseHeldHere(id: string): void {
    if (this.opened(id)) throw new SessionOpenHereError(id);
  }

  /** The one lock-free reading of a session; what it finds wrong is recorded, so listings say it too. */
  protected async readStored(idOrPrefix: string): Promise<Reading> {
    const where = await this.locate(idOrPrefix);
    const { readSession } = await lazy.reading();
    const source = { inspectLock: () => this.live.inspectLock(where.id), load: (o: Parameters<SessionStore['load']>[1]) => this.live.load(where.id, o) };
    const read = await readSession(source, where.id, where.project.path, { now: this.parts.now(), stable: true });
    if (read.reading.problem && read.reading.status !== 'open') await this.live.noteProblem(read.row, where.project).catch(() => undefined);
    return read;
  }

  /** Lets go of the store; from then on every call refuses with `SessionsClosedError` (a second `close()` does nothing). */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return this.store.close();
  }

  /** The store, while the manager is open: a call after `close()` would reach a pool or index already let go. */
  protected get live(): WholeStore {
    if (this.closed) throw new SessionsClosedError();
    return this.store;
  }
}
