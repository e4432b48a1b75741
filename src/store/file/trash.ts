/**
 * The file store's trash (docs/design.md §8): `<home>/trash/<id>/` holds `trash.json` (the
 * entry: when, from which project, what the listing showed) and `session/`, the session's
 * directory moved there whole by one rename. Restoring renames it back, so the session resumes
 * as before, same ID, same project. Only `empty` deletes, and the ID's reservation in
 * `<home>/ids/` is kept, so a deleted ID is never issued again.
 *
 * The file store's `SessionTrash` part; IDs are exact and valid here (the manager resolves
 * prefixes and validates).
 */
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DIR_MODE, fsyncDir, writeFileAtomic } from './atomic-write.js';
import { NotInTrashError, UnknownSessionError, UserError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import { withGuard } from './guard.js';
import { isValidId } from '../../session/api/ids.js';
import { errno } from '../../util/errno.js';
import type { Interpreter, Located, SessionTrash, TrashedSession } from '../../session/format/store.js';
import { issueId } from './ids.js';
import { layout } from './layout.js';
import { inspectLock } from './lock.js';
import { openProject, type FileProject } from './project.js';
import { readMetaSync } from './meta-file.js';
import { locate } from './resolve.js';
import { sourceAt } from './summary.js';

/** `trash/<id>/trash.json`. */
interface TrashEntryFile {
  format: 'chatkeep.trash';
  version: 1;
  id: string;
  trashedAt: string;
  /** The project's real path, and the directory name it had under `projects/` (the original location). */
  project: string;
  projectSlug: string;
  title: string | null;
  messageCount: number;
  updatedAt: string;
  parentId?: string;
  forkPoint?: number;
}

const entryDir = (home: string, id: string): string => join(layout.trash(home), id);
const entryFile = (home: string, id: string): string => join(entryDir(home, id), 'trash.json');
const trashedSessionDir = (home: string, id: string): string => join(entryDir(home, id), 'session');

/** The trash of the data directory `home`, as seen from project `current`. */
export function fileTrash(home: string, current: FileProject, options: { staleMs: number; now: () => Date; interpreter: Interpreter }): SessionTrash {
  const list = async (): Promise<TrashedSession[]> => {
    const names = await readdir(layout.trash(home)).catch((err: unknown) => {
      if (errno(err) === 'ENOENT') return [] as string[];
      throw err;
    });
    const entries: TrashedSession[] = [];
    for (const name of names.filter(isValidId)) {
      const entry = await readEntry(home, name);
      if (entry) entries.push(fromEntry(entry));
    }
    return entries.sort((a, b) => b.trashedAt.getTime() - a.trashedAt.getTime());
  };
  return {
    list,
    /** Moves session `id` (any project) to the trash; `SessionInUseError` while a live process holds it. */
    async put(id: string): Promise<TrashedSession> {
      const where = await locate(home, current, id);
      if (where.id !== id) throw new UnknownSessionError(id); // a prefix: the manager resolves those
      // What the trash listing shows, read before the move (a lock-free read, like a listing):
      // the meta file's row when there is one, else the snapshot and journal.
      const row =
        readMetaSync(where.dir, id) ??
        (await options.interpreter.read(sourceAt(where.dir, options.staleMs), id, where.project.path, { now: options.now(), stable: true })).row;
      const entry: TrashEntryFile = {
        format: 'chatkeep.trash',
        version: 1,
        id,
        trashedAt: options.now().toISOString(),
        project: where.project.path,
        projectSlug: where.project.key,
        title: row.title,
        messageCount: row.messageCount,
        updatedAt: new Date(row.updatedAt).toISOString(),
        ...(row.parentId !== undefined ? { parentId: row.parentId, forkPoint: row.forkPoint ?? 0 } : {}),
      };
      await keepReserved(home, id);
      await mkdir(entryDir(home, id), { recursive: true, mode: DIR_MODE });
      try {
        // Every lock acquisition and takeover runs under this guard: holding it, no writer can
        // start, and a live holder (checked under it) keeps the session where it is.
        await withGuard(layout.takeoverGuard(where.dir), async () => {
          const lock = await inspectLock(where.dir, options.staleMs);
          if (lock.state === 'held') throw sessionInUse(id, lock.owner, options.now());
          // The entry first: a crash before the rename leaves the session in place, and an
          // entry without a session, which is not listed and is reused by the next try.
          await writeFileAtomic(entryFile(home, id), `${JSON.stringify(entry, null, 2)}\n`);
          await rename(where.dir, trashedSessionDir(home, id));
        });
      } catch (err) {
        // Refused or failed before the move: no trace of it in the trash.
        if (!(await exists(trashedSessionDir(home, id)))) {
          await unlink(entryFile(home, id)).catch(() => undefined);
          await rmdir(entryDir(home, id)).catch(() => undefined);
        }
        throw err;
      }
      // The guard moved along with the directory (its own removal at the old path found nothing).
      await rm(join(trashedSessionDir(home, id), 'lock.takeover'), { recursive: true, force: true });
      await fsyncDir(layout.sessions(where.project.dir));
      await fsyncDir(entryDir(home, id));
      return fromEntry(entry);
    },

    /** Puts session `id` back where it was; a `UserError` when that ID is taken there now (nothing overwritten). */
    async restore(id: string): Promise<Located> {
      const entry = await readEntry(home, id);
      if (!entry) throw new NotInTrashError(id);
      const project = await openProject(home, entry.project, options.now());
      const sessions = layout.sessions(project.dir);
      await mkdir(sessions, { recursive: true, mode: DIR_MODE });
      const target = join(sessions, id);
      const taken = (): UserError =>
        new UserError(`Cannot restore ${id}: a session with that ID is in ${entry.project} now. Nothing was changed; the trashed one stays in the trash.`, 'E_RESTORE_TAKEN');
      if (await exists(target)) throw taken();
      try {
        await rename(trashedSessionDir(home, id), target);
      } catch (err) {
        if (errno(err) === 'ENOTEMPTY' || errno(err) === 'EEXIST') throw taken();
        if (errno(err) === 'ENOENT') throw new NotInTrashError(id);
        throw err;
      }
      await fsyncDir(sessions);
      await unlink(entryFile(home, id)).catch(() => undefined);
      await rmdir(entryDir(home, id)).catch(() => undefined);
      return { id, project };
    },

    /** Deletes for good what was trashed before `olderThan` (everything without it); resolves to the IDs deleted. */
    async empty(olderThan?: Date): Promise<string[]> {
      const deleted: string[] = [];
      for (const entry of await list()) {
        if (olderThan !== undefined && entry.trashedAt.getTime() >= olderThan.getTime()) continue;
        await keepReserved(home, entry.id);
        // Renamed away first, then removed: a crash half-way leaves a hidden leftover, never a
        // half-deleted session that lists as restorable.
        const doomed = join(layout.trash(home), `.deleting-${entry.id}-${randomBytes(4).toString('hex')}`);
        try {
          await rename(entryDir(home, entry.id), doomed);
        } catch (err) {
          if (errno(err) === 'ENOENT') continue; // restored or deleted meanwhile
          throw err;
        }
        await rm(doomed, { recursive: true, force: true });
        deleted.push(entry.id);
      }
      return deleted;
    },
  };
}

/**
 * The ID's reservation (`ids/<id>`, see ids.ts) must outlive the session: sessions made before
 * the registry existed have none, so one is made before anything is trashed or deleted.
 */
async function keepReserved(home: string, id: string): Promise<void> {
  await mkdir(layout.ids(home), { recursive: true, mode: DIR_MODE });
  if (issueId(layout.ids(home), id)) await fsyncDir(layout.ids(home));
}

/** The entry of a trashed session, or undefined when there is none (or no session beside it). */
async function readEntry(home: string, id: string): Promise<TrashEntryFile | undefined> {
  let value: Partial<TrashEntryFile>;
  try {
    value = JSON.parse(await readFile(entryFile(home, id), 'utf8')) as Partial<TrashEntryFile>;
  } catch {
    return undefined;
  }
  const valid =
    value.format === 'chatkeep.trash' && value.id === id && typeof value.project === 'string' &&
    typeof value.trashedAt === 'string' && !Number.isNaN(Date.parse(value.trashedAt));
  if (!valid || !(await exists(trashedSessionDir(home, id)))) return undefined;
  return value as TrashEntryFile;
}

function fromEntry(entry: TrashEntryFile): TrashedSession {
  return {
    id: entry.id,
    project: entry.project,
    title: typeof entry.title === 'string' ? entry.title : null,
    trashedAt: new Date(entry.trashedAt),
    messageCount: Number.isInteger(entry.messageCount) ? entry.messageCount : 0,
    ...(typeof entry.updatedAt === 'string' ? { updatedAt: new Date(entry.updatedAt) } : {}),
    ...(typeof entry.parentId === 'string' ? { parentId: entry.parentId } : {}),
    ...(Number.isInteger(entry.forkPoint) ? { forkPoint: entry.forkPoint } : {}),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}
