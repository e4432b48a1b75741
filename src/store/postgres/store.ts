/**
 * The PostgreSQL store (docs/design.md §9): the `SessionStore` the session model talks to,
 * over a database many machines share. `openPostgresStore` connects, creates or migrates the
 * schema (refusing a newer one), and works out this directory's project.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Pool } from 'pg';
import { UserError } from '../../session/api/errors.js';
import { baseIdFor } from '../../session/api/ids.js';
import type { IndexRow } from '../../session/api/listing.js';
import { HISTORY_LINES, type EventLog, type Interpreter, type KeptPart, type LoadOptions, type LockState, type Reading, type SessionStore, type SessionTrash, type StoredSession, type WriterLock } from '../../session/format/store.js';
import type { SearchResults } from '../../session/api/search-data.js';
import type { ProjectInfo, SessionSnapshot } from '../../session/api/data.js';
import type { Target, Timeouts } from './connect.js';
import { DEFAULT_TIMEOUTS, createPool, onOneConnection, query, targetOf, transaction } from './connect.js';
import { openEventLog, stillCurrent } from './event-log.js';
import { appendGroup } from './group-commit.js';
import { PgAdoptBatches } from './adopt-batch.js';
import { INSPECT_SQL, lockStateFrom } from './lock.js';
import { takeLock } from './take-lock.js';
import type { InspectRow, PgLock } from './lock.js';
import { migrate } from './schema-upgrade.js';
import { keyOf, projectInfo, projectOf } from './project-key.js';
import { findSession, listRows, loadSession, searchedRows } from './reading.js';
import { candidateIds, insertSession, insertWithSnapshot, issueId, recordProject, storeSnapshot } from './session-rows.js';
import { ReadOnlyShareError } from './team/sharing.js';
import { OWNER_SQL } from './team/row-security.js';
import { isPostgresUrl, redactUrl } from './url.js';
import { lazyTrash } from '../lazy-trash.js';

export interface PostgresStoreOptions {
  /** The working directory whose project this is. */
  cwd: string;
  now?: () => Date;
  /** Applied to input history before it is written (the model redacts what it writes itself). */
  redact?: (text: string) => string;
  timeouts?: Partial<Timeouts>;
  /** Where libpq's PGSSLMODE, PGSSLROOTCERT, PGSSLCERT and PGSSLKEY are read (none: the URL alone says). */
  env?: Record<string, string | undefined>;
  /** What the model makes of a session, for sessions whose columns know less than their events (no snapshot yet). */
  interpreter: Interpreter;
}

/**
 * A session's listing columns are its owner's to write (an admin's too); a grantee's additions
 * reach them through the server's own trigger (by-operation.ts), so its updates are left out.
 */
const MINE = '(owner = current_user OR (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user))';

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
  if (!isPostgresUrl(url)) {
    throw new UserError(`Not a PostgreSQL URL: \`${redactUrl(url)}\`. Use postgres://USER:PASSWORD@HOST:PORT/DATABASE.`, 'E_STORE_URL');
  }
  const target = targetOf(url, options.env ?? {}, options.timeouts);
  const now = options.now ?? (() => new Date());
  const redact = options.redact ?? ((text: string) => text);
  const pool = await createPool(target);
  try {
    await migrate(pool, target);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const project = await projectOf(options.cwd);
  return new PostgresStore(pool, target, project, now, redact, options.interpreter);
}

/** The PostgreSQL store (its type names what it adds to `SessionStore` until the seam's interface has it all). */
export class PostgresStore implements SessionStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly trash: SessionTrash;
  private readonly held = new Set<PgLock>();
  /** Locks of sessions shared with this role for writing: it appends events, never rewrites what is stored. */
  private readonly appendOnly = new WeakSet<PgLock>();
  /** The held sessions' appends, committed together when they arrive together (group-commit.ts). */
  private readonly appends = appendGroup();
  /** Sessions stored whole (import, copies), committed by the batch. */
  private batches: PgAdoptBatches | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly target: Target,
    readonly project: ProjectInfo,
    private readonly now: () => Date,
    private readonly redact: (text: string) => string,
    private readonly interpreter: Interpreter,
  ) {
    this.location = target.location;
    this.trash = lazyTrash(async () =>
      (await import('./trash.js')).pgTrash({
        pool: this.pool,
        target: this.target,
        now: this.now,
        project: (key, path) => this.projectFor(key, path),
        read: async (id, path) => (await this.readStable(id, path)).row,
      }),
    );
  }

  private q<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    return query<R & Record<string, unknown>>(this.pool, this.target, sql, params);
  }

  async reserveId(at: Date, project: ProjectInfo): Promise<string> {
    const base = baseIdFor(at);
    return transaction(this.pool, this.target, async (client) => {
      await recordProject(client, project);
      for (const id of candidateIds(base)) {
        if (!(await issueId(client, id))) continue;
        await insertSession(client, id, project, at);
        return id;
      }
      throw new Error(`Could not find a free session ID after ${base}`);
    });
  }

  claimId(id: string, at: Date, project: ProjectInfo): Promise<boolean> {
    return transaction(this.pool, this.target, async (client) => {
      await recordProject(client, project);
      if (!(await issueId(client, id))) return false;
      await insertSession(client, id, project, at);
      return true;
    });
  }

  async adopt(snapshot: SessionSnapshot): Promise<boolean> {
    const project = snapshot.project === this.project.path ? this.project : await projectOf(snapshot.project);
    const { encodeSnapshot } = await import('../../session/format/codec.js');
    // Nobody holds the new copy: it is stored closed.
    const closed: SessionSnapshot = { ...snapshot, status: 'closed' };
    const text = await encodeSnapshot(closed);
    this.batches ??= new PgAdoptBatches(this.pool, this.target);
    return this.batches.adopt(project, async (client) => {
      if (!(await issueId(client, snapshot.id))) return false;
      await insertWithSnapshot(client, closed, text, project, this.now());
      return true;
    });
  }

  async lock(id: string, onLost: (err: Error) => void): Promise<WriterLock> {
    // Another role's session shared read-only: refused here, in one line, before any write is tried.
    const [owned] = await this.q<{ owner: string; writable: boolean; mine: boolean }>(OWNER_SQL, [id]);
    if (owned && !owned.writable) throw new ReadOnlyShareError(id, owned.owner);
    const lock = await takeLock({ target: this.target, id, onLost, now: this.now, mine: owned === undefined || owned.mine });
    this.held.add(lock);
    // Another's session shared for writing: its events are appended, its snapshot stays its owner's.
    if (owned && !owned.mine) this.appendOnly.add(lock);
    const release = lock.release.bind(lock);
    return Object.assign(lock, {
      release: async () => {
        this.held.delete(lock);
        await release();
      },
    });
  }

  async inspectLock(id: string): Promise<LockState> {
    return lockStateFrom(await this.q<InspectRow>(INSPECT_SQL, [id]));
  }

  load(id: string, options: LoadOptions): Promise<StoredSession> {
    return loadSession(this.pool, this.target, id, options);
  }

  async openLog(id: string, lock: WriterLock): Promise<EventLog> {
    const held = this.ownLock(id, lock);
    return openEventLog(held, this.appendOnly.has(held), this.appends);
  }

  async discard(id: string, lock: WriterLock, options: { freeId?: boolean } = {}): Promise<void> {
    // The row goes, and its events (a trigger: events-cascade.ts), holder and search rows (ON DELETE CASCADE) with it; the ID
    // stays in chatkeep.ids. Over the lock's own connection, which lets the lock go as it ends.
    const deleted = await this.ownLock(id, lock).write((client) =>
      client.query(
        `DELETE FROM chatkeep.sessions s WHERE s.id = $1 AND s.snapshot IS NULL
           AND NOT EXISTS (SELECT 1 FROM chatkeep.events e WHERE e.session_id = s.id AND e.type = 'message')`,
        [id],
      ),
    );
    if (deleted.rowCount !== 1) throw new Error('it holds a message or a snapshot');
    await lock.release();
    if (options.freeId) await this.q('DELETE FROM chatkeep.ids WHERE id = $1', [id]);
  }

  async writeSnapshot(id: string, snapshot: SessionSnapshot, lock: WriterLock): Promise<number> {
    const held = this.ownLock(id, lock);
    // The codec (superjson) loads with the first snapshot; both stores write the same text.
    const { encodeSnapshot } = await import('../../session/format/codec.js');
    const text = await encodeSnapshot(snapshot);
    // A grantee's events are its save: the snapshot, and what is derived from it, stay the owner's.
    if (this.appendOnly.has(held)) return held.write(async (client) => (await stillCurrent(client, id, held.epoch), Buffer.byteLength(text, 'utf8')));
    return held.write((client) => onOneConnection(client, this.target.timeouts, () => storeSnapshot(client, { ...snapshot, id }, text, this.now(), held.epoch)));
  }

  async snapshotInfo(id: string): Promise<{ at: Date; bytes: number } | undefined> {
    const [row] = await this.q<{ snapshot_at: Date; snapshot_bytes: number }>(
      'SELECT snapshot_at, snapshot_bytes FROM chatkeep.sessions WHERE id = $1 AND snapshot IS NOT NULL',
      [id],
    );
    return row ? { at: row.snapshot_at, bytes: row.snapshot_bytes } : undefined;
  }

  async recordRow(row: IndexRow): Promise<void> {
    // The listing columns are the truth here, written with each snapshot; this records what the
    // model worked out beyond it (a session rebuilt from its events, or found damaged).
    await this.q(
      `UPDATE chatkeep.sessions SET title = $2, updated_at = $3, message_count = $4, input_tokens = $5, output_tokens = $6,
         branch = $7, by_model = $8, problem = $9, parent_id = $10, fork_point = $11, title_source = $12, archived_messages = $13 WHERE id = $1 AND ${MINE}`,
      [row.id, row.title, new Date(row.updatedAt), row.messageCount, row.inputTokens ?? 0, row.outputTokens ?? 0, row.branch ?? null,
        row.byModel?.length ? JSON.stringify(row.byModel) : null, row.problem ? JSON.stringify(row.problem) : null,
        row.parentId ?? null, row.parentId !== undefined ? (row.forkPoint ?? 0) : null, row.titleSource ?? null, row.archivedMessages ?? null],
    );
  }

  async noteProblem(row: IndexRow, _project?: ProjectInfo): Promise<void> {
    await this.q(`UPDATE chatkeep.sessions SET problem = $2 WHERE id = $1 AND ${MINE}`, [row.id, row.problem ? JSON.stringify(row.problem) : null]);
  }

  readonly keptAside = {
    read: async (id: string): Promise<KeptPart[]> => {
      const rows = await this.q<{ n: string; part: string; content: string }>('SELECT n, part, content FROM chatkeep.quarantine WHERE session_id = $1 ORDER BY n', [id]);
      return rows.map((r) => ({ where: `chatkeep.quarantine (n = ${r.n})`, part: r.part === 'snapshot' ? 'snapshot' : 'journal', text: r.content }));
    },
    forget: async (id: string): Promise<number> => (await this.q('DELETE FROM chatkeep.quarantine WHERE session_id = $1 RETURNING n', [id])).length,
  };

  where(id: string): { location: string } {
    return { location: `${this.location} (session ${id})` };
  }

  async locate(idOrPrefix: string): Promise<{ id: string; project: ProjectInfo }> {
    const found = await findSession(this.pool, this.target, idOrPrefix);
    return { id: found.id, project: this.projectFor(found.key, found.path) };
  }

  async projects(): Promise<ProjectInfo[]> {
    const rows = await this.q<{ key: string; path: string }>(
      // One row per key: the same repository may be this role's and (shared with it) another's.
      `SELECT DISTINCT ON (p.key) p.key, p.path FROM chatkeep.projects p
       WHERE p.key <> $1 AND EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.project_key = p.key AND s.trashed_at IS NULL)
       ORDER BY p.key, p.owner = current_user DESC`,
      [keyOf(this.project)],
    );
    return [this.project, ...rows.map((r) => projectInfo(r.key, r.path))];
  }

  async projectAt(path: string): Promise<ProjectInfo | undefined> {
    const wanted = await realpath(path).catch(() => resolve(path));
    if (wanted === this.project.path) return this.project;
    const project = await projectOf(wanted);
    const [known] = await this.q<{ key: string }>('SELECT key FROM chatkeep.projects WHERE key = $1', [keyOf(project)]);
    return known ? project : undefined;
  }

  list(projects: readonly ProjectInfo[], options: { newest?: number } = {}): Promise<IndexRow[]> {
    return listRows(this.pool, this.target, projects.map(keyOf), options.newest);
  }

  readonly history = {
    load: async (): Promise<string[]> => {
      const rows = await this.q<{ line: string }>(
        'SELECT line FROM (SELECT n, line FROM chatkeep.history WHERE project_key = $1 ORDER BY n DESC LIMIT $2) t ORDER BY n',
        [keyOf(this.project), HISTORY_LINES],
      );
      return rows.map((r) => r.line);
    },
    append: async (line: string): Promise<void> => {
      if (!line.trim()) return;
      await this.q('INSERT INTO chatkeep.history (project_key, line, at) VALUES ($1, $2, $3)', [keyOf(this.project), this.redact(line), this.now()]);
    },
  };

  async searchSessions(text: string, projects: readonly ProjectInfo[], options: { limit?: number; snippets?: boolean }): Promise<SearchResults> {
    const { searchSessions } = await import('./search.js');
    const context = {
      pool: this.pool,
      target: this.target,
      results: (keys: string[], ids: string[], messages: (number | null)[], folded: string, find: boolean[]) =>
        searchedRows(this.pool, this.target, keys, ids, messages, folded, find),
      read: async (id: string, path: string) => (await this.readStable(id, path)).reading.snapshot,
    };
    return searchSessions(context, text, projects.map((p) => ({ key: keyOf(p), path: p.path })), options.limit, options.snippets);
  }

  /** A session as a lock-free reading gives it (as listings and `show` read it). */
  private async readStable(id: string, projectPath: string): Promise<Reading> {
    const source = { inspectLock: () => this.inspectLock(id), load: (o: LoadOptions) => this.load(id, o) };
    return this.interpreter.read(source, id, projectPath, { now: this.now(), stable: true });
  }

  private projectFor(key: string, path: string): ProjectInfo {
    return key === keyOf(this.project) ? this.project : projectInfo(key, path);
  }

  async close(): Promise<void> {
    for (const lock of [...this.held]) await lock.release().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  /** The lock as this store made it, for this session: writes go over its connection. */
  private ownLock(id: string, lock: WriterLock): PgLock {
    const held = lock as Partial<PgLock>;
    if (!this.held.has(lock as PgLock) || held.id !== id) throw new Error(`Session ${id}'s lock is not held through this store.`);
    return lock as PgLock;
  }
}
