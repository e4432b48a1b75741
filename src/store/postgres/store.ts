/**
 * The PostgreSQL store (issue 10, DESIGN §8): the `SessionStore` the session model talks to,
 * over a database many machines share. `openPostgresStore` connects, creates or migrates the
 * schema (refusing a newer one), and works out this directory's project.
 */
import type { Pool } from 'pg';
import { UserError } from '../../session/errors.js';
import { assertValidId, baseIdFor } from '../../session/ids.js';
import type { IndexRow } from '../../session/index-row.js';
import type { EventLog, LoadOptions, LockState, SessionStore, StoredSession, WriterLock } from '../../session/store.js';
import type { ProjectInfo, SessionSnapshot } from '../../session/types.js';
import type { Target, Timeouts } from './connect.js';
import { DEFAULT_TIMEOUTS, createPool, query, transaction } from './connect.js';
import { openEventLog } from './event-log.js';
import { HOST, INSPECT_SQL, lockStateFrom, takeLock } from './lock.js';
import type { InspectRow, PgLock } from './lock.js';
import { migrate } from './migrations.js';
import { keyOf, projectInfo, projectOf } from './project-key.js';
import { findSession, listRows, loadSession } from './reading.js';
import { redactUrl } from './url.js';

export interface PostgresStoreOptions {
  /** The working directory whose project this is. */
  cwd: string;
  now?: () => Date;
  /** Applied to input history before it is written (the model redacts what it writes itself). */
  redact?: (text: string) => string;
  timeouts?: Partial<Timeouts>;
}

/** How many history lines `history.load()` returns (as the file store). */
const MAX_HISTORY = 1000;

/** True for a URL this store takes (`postgres://` or `postgresql://`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<SessionStore> {
  if (!isPostgresUrl(url)) {
    throw new UserError(`Not a PostgreSQL URL: \`${redactUrl(url)}\`. Use postgres://USER:PASSWORD@HOST:PORT/DATABASE.`, 'E_STORE_URL');
  }
  const target: Target = { url, location: redactUrl(url), timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts } };
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
  return new PostgresStore(pool, target, project, now, redact);
}

class PostgresStore implements SessionStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  private readonly held = new Set<PgLock>();

  constructor(
    private readonly pool: Pool,
    private readonly target: Target,
    readonly project: ProjectInfo,
    private readonly now: () => Date,
    private readonly redact: (text: string) => string,
  ) {
    this.location = target.location;
  }

  private q<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    return query<R & Record<string, unknown>>(this.pool, this.target, sql, params);
  }

  async reserveId(at: Date, project: ProjectInfo): Promise<string> {
    const base = await baseIdFor(at);
    return transaction(this.pool, this.target, async (client) => {
      await client.query(
        `INSERT INTO chatkeep.projects (key, path, host) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET path = EXCLUDED.path, host = EXCLUDED.host, updated_at = now()`,
        [keyOf(project), project.path, HOST],
      );
      for (let n = 1; n < 10_000; n++) {
        const id = n === 1 ? base : `${base}-${n}`;
        // The ids table keeps every ID ever issued (also of sessions since deleted): never reissued.
        const issued = await client.query('INSERT INTO chatkeep.ids (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [id]);
        if (issued.rowCount !== 1) continue;
        await client.query(
          'INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
          [id, keyOf(project), project.path, at],
        );
        return id;
      }
      throw new Error(`Could not find a free session ID after ${base}`);
    });
  }

  async lock(id: string, onLost: (err: Error) => void): Promise<WriterLock> {
    const lock = await takeLock(this.target, assertValidId(id), onLost, this.now);
    this.held.add(lock);
    const release = lock.release.bind(lock);
    return Object.assign(lock, {
      release: async () => {
        this.held.delete(lock);
        await release();
      },
    });
  }

  async inspectLock(id: string): Promise<LockState> {
    return lockStateFrom(await this.q<InspectRow>(INSPECT_SQL, [assertValidId(id)]));
  }

  load(id: string, options: LoadOptions): Promise<StoredSession> {
    return loadSession(this.pool, this.target, assertValidId(id), options);
  }

  async openLog(id: string, lock: WriterLock): Promise<EventLog> {
    return openEventLog(this.ownLock(id, lock));
  }

  async writeSnapshot(id: string, snapshot: SessionSnapshot, lock: WriterLock): Promise<number> {
    const held = this.ownLock(id, lock);
    // The codec (superjson) loads with the first snapshot; both stores write the same text.
    const { encodeSnapshot } = await import('../../session/codec.js');
    const text = await encodeSnapshot(snapshot);
    const bytes = Buffer.byteLength(text, 'utf8');
    const s = snapshot;
    await held.write((client) =>
      client.query(
        `UPDATE chatkeep.sessions SET snapshot = $2, snapshot_bytes = $3, snapshot_at = $4, schema_version = $5,
           title = $6, status = $7, updated_at = $8, message_count = $9, input_tokens = $10, output_tokens = $11,
           by_model = $12, branch = $13, journal_seq = $14, problem = NULL
         WHERE id = $1`,
        [id, text, bytes, this.now(), s.schemaVersion, s.title, s.status, s.updatedAt, s.stats.messageCount, s.stats.inputTokens,
          s.stats.outputTokens, s.stats.byModel?.length ? JSON.stringify(s.stats.byModel) : null, s.git?.branch ?? null, s.journalSeq],
      ),
    );
    return bytes;
  }

  async snapshotInfo(id: string): Promise<{ at: Date; bytes: number } | undefined> {
    const [row] = await this.q<{ snapshot_at: Date; snapshot_bytes: number }>(
      'SELECT snapshot_at, snapshot_bytes FROM chatkeep.sessions WHERE id = $1 AND snapshot IS NOT NULL',
      [assertValidId(id)],
    );
    return row ? { at: row.snapshot_at, bytes: row.snapshot_bytes } : undefined;
  }

  async recordRow(row: IndexRow): Promise<void> {
    // The listing columns are the truth here, written with each snapshot; this records what the
    // model worked out beyond it (a session rebuilt from its events, or found damaged).
    await this.q(
      `UPDATE chatkeep.sessions SET title = $2, updated_at = $3, message_count = $4, input_tokens = $5, output_tokens = $6,
         branch = $7, by_model = $8, problem = $9 WHERE id = $1`,
      [row.id, row.title, new Date(row.updatedAt), row.messageCount, row.inputTokens ?? 0, row.outputTokens ?? 0, row.branch ?? null,
        row.byModel?.length ? JSON.stringify(row.byModel) : null, row.problem ? JSON.stringify(row.problem) : null],
    );
  }

  async forgetRow(): Promise<void> {
    // Nothing cached: the rows are the sessions themselves.
  }

  async locate(idOrPrefix: string): Promise<{ id: string; project: ProjectInfo }> {
    const found = await findSession(this.pool, this.target, idOrPrefix);
    return { id: found.id, project: found.key === keyOf(this.project) ? this.project : projectInfo(found.key, found.path) };
  }

  async projects(): Promise<ProjectInfo[]> {
    const rows = await this.q<{ key: string; path: string }>(
      `SELECT p.key, p.path FROM chatkeep.projects p
       WHERE p.key <> $1 AND EXISTS (SELECT 1 FROM chatkeep.sessions s WHERE s.project_key = p.key AND s.trashed_at IS NULL)
       ORDER BY p.key`,
      [keyOf(this.project)],
    );
    return [this.project, ...rows.map((r) => projectInfo(r.key, r.path))];
  }

  list(projects: readonly ProjectInfo[]): Promise<IndexRow[]> {
    return listRows(this.pool, this.target, projects.map(keyOf));
  }

  readonly history = {
    load: async (): Promise<string[]> => {
      const rows = await this.q<{ line: string }>(
        'SELECT line FROM (SELECT n, line FROM chatkeep.history WHERE project_key = $1 ORDER BY n DESC LIMIT $2) t ORDER BY n',
        [keyOf(this.project), MAX_HISTORY],
      );
      return rows.map((r) => r.line);
    },
    append: async (line: string): Promise<void> => {
      if (!line.trim()) return;
      await this.q('INSERT INTO chatkeep.history (project_key, line, at) VALUES ($1, $2, $3)', [keyOf(this.project), this.redact(line), this.now()]);
    },
  };

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
