/**
 * `openSessions`: the library's entry. It picks the store (the data directory by default; a
 * PostgreSQL server with `store: 'postgres://…'`; in memory with `persist: false`) and builds
 * the session manager over it. node-postgres loads only when a server is chosen.
 */
import { UserError, printable } from '../session/api/errors.js';
import { checkOptions } from '../session/api/check-options.js';
import { OPEN_OPTIONS } from '../session/api/library-options.js';
import { Manager } from '../session/runtime/manager.js';
import { createRedactor, noRedaction } from '../session/runtime/redact.js';
import { interpreter } from '../session/runtime/interpreter.js';
import type { OpenSessionsOptions, SessionManager } from '../session/runtime/manager-api.js';
import { packageVersion } from '../version.js';
import { readConfigFile } from './file/config-files.js';
import { layout } from './file/layout.js';

const DEFAULT_STALE_MS = 20_000;

/**
 * Opens the session store at `home` for the project of `cwd` (both created as needed, 0700).
 * The returned manager creates, resumes, lists and reads sessions.
 */
export async function openSessions(options: OpenSessionsOptions): Promise<SessionManager> {
  checkOptions('openSessions', options, OPEN_OPTIONS, ['home', 'cwd']);
  const now = options.now ?? (() => new Date());
  const redact = options.redact === false ? noRedaction : createRedactor({ env: options.env ?? process.env });
  const staleMs = options.lockStaleMs ?? staleFromEnv(options.env) ?? DEFAULT_STALE_MS;
  let store;
  let projectDir: string;
  if (options.persist === false) {
    const { findProject } = await import('./file/project.js');
    const { createHistory } = await import('./file/history.js');
    const [{ MemoryStore }, { MemoryBacking }] = await Promise.all([import('./memory/store.js'), import('./memory/backing.js')]);
    const project = await findProject(options.home, options.cwd);
    projectDir = project.dir;
    // Nothing is written anywhere; the input history typed in earlier chats is still offered (read when first asked for).
    const earlierHistory = (): Promise<string[]> => createHistory(layout.history(project.dir), redact).load();
    store = new MemoryStore({ backing: new MemoryBacking(), project: { key: project.key, path: project.path }, now, redact, interpreter, location: 'nowhere (--no-persist)', earlierHistory });
  } else if (options.store !== undefined) {
    const { openPostgresStore } = await import('./postgres/store.js');
    // Behind a transaction-pooling pooler the lock is a lease: it runs out after the same stale time.
    store = await openPostgresStore(options.store, { cwd: options.cwd, now, redact, interpreter, env: options.env ?? process.env, timeouts: { leaseMs: staleMs } });
    // Config files stay on this machine, in the data directory (which a server store never creates).
    const { findProject } = await import('./file/project.js');
    projectDir = (await findProject(options.home, options.cwd)).dir;
  } else {
    const { openFileStore } = await import('./file/file-store.js');
    const files = await openFileStore({ home: options.home, cwd: options.cwd, now, staleMs, redact, interpreter });
    projectDir = files.project.dir;
    store = files;
  }
  return new Manager({
    store,
    home: options.home,
    redact,
    now,
    toolVersion: options.toolVersion ?? packageVersion(),
    readConfig: async () => {
      const [user, project] = await Promise.all([readConfigFile(layout.userConfig(options.home)), readConfigFile(layout.projectConfig(projectDir))]);
      return { user, project };
    },
    // Read from .git files (a few small reads, no git process); nothing is recorded outside a work tree.
    gitContext: () => import('../git/read-git.js').then(({ readGitContext }) => readGitContext(store.project.path)),
    // Loaded only when a store without its own search is searched.
    searchRows: async (...args) => (await import('../search/generic-search.js')).searchRows(...args),
  });
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
