/**
 * The trash on PostgreSQL (docs/design.md §7), as the file store's (src/store/file/trash.ts) behaves: a
 * trashed session keeps its row, marked by `trashed_at`, and drops out of listings, `locate`
 * and searches; restoring clears the mark, so it resumes as before. Only `empty` deletes
 * (its events and holder row go with it), and `chatkeep.ids` keeps the ID, so it is never
 * issued again.
 */
import type { Pool } from 'pg';
import { NotInTrashError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import { sessionInUse } from '../../session/api/in-use.js';
import type { Located, SessionTrash, TrashedSession } from '../../session/format/store.js';
import type { ProjectInfo } from '../../session/api/data.js';
import type { Target } from './connect.js';
import { query, transaction } from './connect.js';
import { LOCK_SPACE } from './lock-key.js';
import { LEASED_SQL, ownerFrom } from './lock.js';

interface TrashRow {
  id: string;
  project_path: string;
  title: string | null;
  trashed_at: Date;
  message_count: number;
  updated_at: Date;
  parent_id: string | null;
  fork_point: number | null;
}

const TRASH_COLUMNS = 'id, project_path, title, trashed_at, message_count, updated_at, parent_id, fork_point';

function fromRow(r: TrashRow): TrashedSession {
  return {
    id: r.id,
    project: r.project_path,
    title: r.title,
    trashedAt: r.trashed_at,
    messageCount: r.message_count,
    updatedAt: r.updated_at,
    ...(r.parent_id !== null ? { parentId: r.parent_id, forkPoint: r.fork_point ?? 0 } : {}),
  };
}

/** What the trash listing shows of a session, as a lock-free reading finds it (for a session whose columns know less). */
export type RowReader = (id: string, projectPath: string) => Promise<{ title: string | null; messageCount: number; updatedAt: number; parentId?: string; forkPoint?: number }>;

export interface TrashContext {
  pool: Pool;
  target: Target;
  now: () => Date;
  project: (key: string, path: string) => ProjectInfo;
  read: RowReader;
}

export function pgTrash(ctx: TrashContext): SessionTrash {
  const q = <R extends object>(sql: string, params: unknown[]): Promise<R[]> => query<R & Record<string, unknown>>(ctx.pool, ctx.target, sql, params);
  return {
    /**
     * Marks session `id` trashed. The move takes the session's advisory lock for its transaction:
     * refused (`SessionInUseError`) while a writer has it, and no writer can take it until the
     * mark is committed (a writer checks the mark once it holds the lock, see lock.ts).
     */
    async put(id: string): Promise<TrashedSession> {
      // Without a snapshot the columns know nothing of the events: what the listing would show
      // comes from reading them, as the file store does for a session without its meta file.
      const [before] = await q<{ project_path: string; saved: boolean }>(
        'SELECT project_path, snapshot IS NOT NULL AS saved FROM chatkeep.sessions WHERE id = $1 AND trashed_at IS NULL',
        [id],
      );
      const read = before && !before.saved ? await ctx.read(id, before.project_path) : undefined;
      const at = ctx.now();
      return transaction(ctx.pool, ctx.target, async (client) => {
        // The row lock first, in a statement of its own, so that the lease check below sees a
        // holder committed while we waited for it (a statement that waited keeps its older snapshot).
        await client.query('SELECT 1 FROM chatkeep.sessions WHERE id = $1 FOR UPDATE', [id]);
        const found = await client.query<TrashRow & { free: boolean; trashed: boolean }>(
          `SELECT ${TRASH_COLUMNS}, trashed_at IS NOT NULL AS trashed,
             pg_try_advisory_xact_lock($2, (SELECT key FROM chatkeep.lock_keys WHERE session_id = $1)) AND NOT EXISTS (SELECT 1 FROM chatkeep.holders h WHERE h.session_id = $1 AND ${LEASED_SQL}) AS free
           FROM chatkeep.sessions WHERE id = $1 FOR UPDATE`,
          [id, LOCK_SPACE],
        );
        const row = found.rows[0];
        if (!row) throw new UnknownSessionError(id);
        if (row.trashed) throw new TrashedSessionError(id);
        if (!row.free) {
          const holder = await client.query<{ pid: number; host: string; started_at: Date }>(
            'SELECT pid, host, started_at FROM chatkeep.holders WHERE session_id = $1',
            [id],
          );
          throw sessionInUse(id, holder.rows[0] ? ownerFrom(holder.rows[0]) : undefined, at);
        }
        await client.query('UPDATE chatkeep.sessions SET trashed_at = $2 WHERE id = $1', [id, at]);
        const shown = read
          ? { ...row, title: read.title, message_count: read.messageCount, updated_at: new Date(read.updatedAt), parent_id: read.parentId ?? null, fork_point: read.forkPoint ?? null }
          : row;
        return fromRow({ ...shown, trashed_at: at });
      });
    },

    /** Clears the mark: the session is back in its project, under the same ID (which nothing else can hold here). */
    async restore(id: string): Promise<Located> {
      const [row] = await q<{ project_key: string; project_path: string }>(
        'UPDATE chatkeep.sessions SET trashed_at = NULL WHERE id = $1 AND trashed_at IS NOT NULL RETURNING project_key, project_path',
        [id],
      );
      if (!row) throw new NotInTrashError(id);
      return { id, project: ctx.project(row.project_key, row.project_path) };
    },

    /** Newest first. */
    async list(): Promise<TrashedSession[]> {
      const rows = await q<TrashRow>(`SELECT ${TRASH_COLUMNS} FROM chatkeep.sessions WHERE trashed_at IS NOT NULL ORDER BY trashed_at DESC, id`, []);
      return rows.map(fromRow);
    },

    /** Deletes what was trashed before `olderThan` (all without it) in one statement; the IDs stay in `chatkeep.ids`. */
    async empty(olderThan?: Date): Promise<string[]> {
      const rows = await q<{ id: string; trashed_at: Date }>(
        `DELETE FROM chatkeep.sessions WHERE trashed_at IS NOT NULL AND ($1::timestamptz IS NULL OR trashed_at < $1) RETURNING id, trashed_at`,
        [olderThan ?? null],
      );
      return rows.sort((a, b) => b.trashed_at.getTime() - a.trashed_at.getTime() || (a.id < b.id ? -1 : 1)).map((r) => r.id);
    },
  };
}
