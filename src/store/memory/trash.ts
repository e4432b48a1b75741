/**
 * The memory store's trash (docs/design.md §7), as the other stores' behave: a trashed session keeps
 * everything, marked with its trash entry, and drops out of listings, `locate` and searches;
 * restoring clears the mark. Only `empty` deletes, and the ID stays issued.
 */
import { NotInTrashError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import type { IndexRow } from '../../session/api/listing.js';
import type { SessionTrash, TrashedSession } from '../../session/format/store.js';
import type { MemoryBacking, MemorySession } from './backing.js';

const newestFirst = (a: TrashedSession, b: TrashedSession): number => b.trashedAt.getTime() - a.trashedAt.getTime() || (a.id < b.id ? -1 : 1);

export function memoryTrash(backing: MemoryBacking, options: { now: () => Date; read: (kept: MemorySession) => Promise<IndexRow> }): SessionTrash {
  const trashed = (): TrashedSession[] => [...backing.sessions.values()].flatMap((s) => (s.trashed ? [s.trashed] : [])).sort(newestFirst);
  return {
    async put(id) {
      const kept = backing.sessions.get(id);
      if (!kept) throw new UnknownSessionError(id);
      if (kept.trashed) throw new TrashedSessionError(id);
      if (kept.holder?.alive) throw sessionInUse(id, kept.holder.owner, options.now());
      // What the trash listing shows: what the session's listing row showed, read before the move.
      const row = await options.read(kept);
      const entry: TrashedSession = {
        id,
        project: kept.project.path,
        title: row.title,
        trashedAt: options.now(),
        messageCount: row.messageCount,
        updatedAt: new Date(row.updatedAt),
        ...(row.parentId !== undefined ? { parentId: row.parentId, forkPoint: row.forkPoint ?? 0 } : {}),
      };
      kept.trashed = entry;
      return entry;
    },
    async restore(id) {
      const kept = backing.sessions.get(id);
      if (!kept?.trashed) throw new NotInTrashError(id);
      delete kept.trashed;
      return { id, project: kept.project };
    },
    list: () => Promise.resolve(trashed()),
    empty(olderThan) {
      const deleted = trashed().filter((t) => olderThan === undefined || t.trashedAt.getTime() < olderThan.getTime());
      for (const t of deleted) backing.sessions.delete(t.id);
      return Promise.resolve(deleted.map((t) => t.id));
    },
  };
}
