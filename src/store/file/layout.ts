import { join, sep } from 'node:path';

/** Where everything lives under the data home (docs/design.md §8). One place builds these paths. */
export const layout = {
  projects: (home: string) => join(home, 'projects'),
  ids: (home: string) => join(home, 'ids'),
  trash: (home: string) => join(home, 'trash'),
  userConfig: (home: string) => join(home, 'config.json'),
  /** A project's directory, from its key (its directory name). */
  project: (home: string, key: string) => join(home, 'projects', key),

  projectFile: (projectDir: string) => join(projectDir, 'project.json'),
  index: (projectDir: string) => join(projectDir, 'index.json'),
  /** The full-text search index, and what changed since it was written (search-index-update.ts). */
  searchIndex: (projectDir: string) => join(projectDir, 'search.idx'),
  searchRecent: (projectDir: string) => join(projectDir, 'search.recent.idx'),
  /** Which of index.json's writes the two files above were last brought up to date with (search-sync.ts). */
  searchSync: (projectDir: string) => join(projectDir, 'search.sync.json'),
  sessions: (projectDir: string) => join(projectDir, 'sessions'),
  /**
   * A session's directory in `sessionsDir` (itself from join()): concatenated, as the paths below
   * are, since a listing builds one per row it checks, and join() costs more than the stat.
   */
  session: (sessionsDir: string, id: string) => `${sessionsDir}${sep}${id}`,
  history: (projectDir: string) => join(projectDir, 'history'),
  projectConfig: (projectDir: string) => join(projectDir, 'config.json'),

  // A session directory's paths come from join() above, already normalized, so a plain
  // concatenation gives what join() would: a rebuild of the index builds 20,000 of these,
  // and join() costs ~1.3 µs each.
  snapshot: (sessionDir: string) => `${sessionDir}${sep}session.json`,
  journal: (sessionDir: string) => join(sessionDir, 'journal.jsonl'),
  meta: (sessionDir: string) => `${sessionDir}${sep}session.meta.json`,
  lock: (sessionDir: string) => join(sessionDir, 'lock'),
  lockOwner: (sessionDir: string) => join(sessionDir, 'lock.owner.json'),
  /** The last fencing epoch issued for the session (docs/design.md §12): one higher with each taking of its lock. */
  lockEpoch: (sessionDir: string) => join(sessionDir, 'epoch'),
  takeoverGuard: (sessionDir: string) => join(sessionDir, 'lock.takeover'),
};

/** True for the name of a session's damaged file moved aside (see corruptName). */
export function isCorruptName(name: string): boolean {
  return /^(session\.json|journal\.jsonl)\.corrupt-/.test(name);
}

/** `<name>.corrupt-<time>`: where a damaged file is moved (never overwritten or deleted). */
export function corruptName(path: string, now: Date): string {
  return `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
}
