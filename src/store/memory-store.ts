/**
 * `openSessions({ persist: false })`: a store that keeps nothing (no data directory, no session
 * directory, no reserved ID, no history line). Sessions live in the process's memory only;
 * stored sessions cannot be opened from it. Input history is still read when it exists.
 */
import { hostname } from 'node:os';
import { UserError } from '../session/errors.js';
import type { SessionStore, WriterLock } from '../session/store.js';
import type { ProjectInfo } from '../session/data.js';

/** The ID of a session that is never stored: not a reserved ID, so it can never clash with one. */
export const UNSAVED_ID = 'unsaved';

function notStored(): UserError {
  return new UserError('Nothing is stored in this chat (--no-persist): stored sessions cannot be opened from it.', 'E_NO_PERSIST');
}

export function memoryStore(project: ProjectInfo, history: { load(): Promise<string[]> }, now: () => Date): SessionStore {
  const nothing = (): Promise<void> => Promise.resolve();
  return {
    kind: 'memory',
    location: 'nowhere (--no-persist)',
    project,
    reserveId: () => Promise.resolve(UNSAVED_ID),
    // Nothing else can take an in-memory session: its lock is never lost.
    lock: (): Promise<WriterLock> =>
      Promise.resolve({
        owner: { pid: process.pid, host: hostname(), startedAt: now().toISOString() },
        stillHeld: () => Promise.resolve(true),
        release: nothing,
      }),
    inspectLock: () => Promise.resolve({ state: 'free' }),
    load: () => Promise.reject(notStored()),
    openLog: () => Promise.resolve({ append: nothing, compact: nothing, close: nothing }),
    writeSnapshot: () => Promise.resolve(0),
    discard: (_id, lock) => lock.release(),
    snapshotInfo: () => Promise.resolve(undefined),
    recordRow: nothing,
    forgetRow: nothing,
    noteProblem: nothing,
    where: () => ({ location: '' }),
    adopt: () => Promise.reject(notStored()),
    trash: () => Promise.reject(notStored()),
    restore: () => Promise.reject(notStored()),
    listTrash: () => Promise.reject(notStored()),
    emptyTrash: () => Promise.reject(notStored()),
    locate: () => Promise.reject(notStored()),
    projects: () => Promise.resolve([project]),
    projectAt: () => Promise.resolve(undefined),
    list: () => Promise.resolve([]),
    searchSessions: (query) => Promise.resolve({ query: query.trim(), total: 0, results: [], index: [] }),
    history: { load: () => history.load(), append: nothing },
    close: nothing,
  };
}
