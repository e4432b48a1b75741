/**
 * `openSessions({ persist: false })`: sessions that live in memory and write nothing at all
 * (no data directory, no session directory, no reserved ID, no history line). Config and input
 * history are still read when they exist.
 */
import { hostname } from 'node:os';
import { blankSnapshot } from './blank.js';
import { readConfigFile } from './config-files.js';
import { UserError } from './errors.js';
import { createHistory } from './history.js';
import { layout } from './layout.js';
import { findProject } from './project.js';
import { createRedactor, noRedaction } from './redact.js';
import { SessionImpl } from './session.js';
import { memorySnapshots } from './snapshot-store.js';
import type { OpenSessionsOptions, Session, SessionManager } from './types.js';
import { packageVersion } from './version.js';

/** The ID of a session that is never stored: not a reserved ID, so it can never clash with one. */
export const UNSAVED_ID = 'unsaved';

function notStored(): UserError {
  return new UserError('Nothing is stored in this chat (--no-persist): stored sessions cannot be opened from it.', 'E_NO_PERSIST');
}

/** A manager whose sessions are kept in memory only. */
export async function openMemorySessions(options: OpenSessionsOptions): Promise<SessionManager> {
  const now = options.now ?? (() => new Date());
  const project = await findProject(options.home, options.cwd);
  const redact = options.redact === false ? noRedaction : createRedactor({ env: options.env ?? process.env });
  const toolVersion = options.toolVersion ?? packageVersion();
  const history = createHistory(layout.history(project.dir), redact);
  return {
    home: options.home,
    project,
    history: { load: () => history.load(), append: () => Promise.resolve() },
    async create(createOptions = {}): Promise<Session> {
      const at = now();
      const held = { owner: { pid: process.pid, host: hostname(), startedAt: at.toISOString() }, stillHeld: () => Promise.resolve(true), release: () => Promise.resolve() };
      const session = new SessionImpl({
        dir: '',
        project,
        state: blankSnapshot(UNSAVED_ID, project.path, at, toolVersion),
        journal: { append: () => Promise.resolve(), truncate: () => Promise.resolve(), close: () => Promise.resolve() },
        snapshots: memorySnapshots,
        lock: Promise.resolve(held),
        // Nothing else can take an in-memory session: its lock is never lost.
        relock: () => Promise.resolve(held),
        report: { recoveredMessages: 0, wasInterrupted: false, notices: [] },
        redact,
        now,
        toolVersion,
        updateRow: () => Promise.resolve(),
      });
      if (createOptions.provider) await session.setProvider(createOptions.provider, 'default');
      if (createOptions.title) await session.setTitle(createOptions.title);
      return session;
    },
    resume: () => Promise.reject(notStored()),
    resolve: () => Promise.reject(notStored()),
    read: () => Promise.reject(notStored()),
    inspect: () => Promise.reject(notStored()),
    fork: () => Promise.reject(notStored()),
    list: () => Promise.resolve([]),
    search: (query) => Promise.resolve({ query: query.trim(), total: 0, results: [], index: [] }),
    latest: () => Promise.resolve(undefined),
    holder: () => Promise.resolve(undefined),
    async readConfig() {
      const [user, projectConfig] = await Promise.all([
        readConfigFile(layout.userConfig(options.home)),
        readConfigFile(layout.projectConfig(project.dir)),
      ]);
      return { user, project: projectConfig };
    },
  };
}
