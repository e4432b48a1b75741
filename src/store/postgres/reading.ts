/**
 * Reads of the PostgreSQL store that need no lock: a session's snapshot and events, listing
 * rows, and finding a session by ID or prefix. Each is a query over an index: the primary keys,
 * `sessions_by_project_owner` for a project's listing (listing-index.ts).
 */
import type { Pool } from 'pg';
import { DamagedFileError, decodeSnapshot } from '../../session/format/codec.js';
import { AmbiguousIdError, TrashedSessionError, UnknownSessionError } from '../../session/api/errors.js';
import type { IndexRow, SessionProblem } from '../../session/api/listing.js';
import { SCHEMA_VERSION } from '../../session/format/migrations.js';
import type { LoadOptions, SessionEvent, StoredSession } from '../../session/format/store.js';
import { readEvent, rowLine } from '../../session/model/future-events.js';
import { salvageSnapshot, type Salvage } from '../../session/format/salvage.js';
import type { FutureEvent, ModelUsage, Role, SessionSnapshot, SessionStatus, TitleSource } from '../../session/api/data.js';
import type { SearchableMessage } from '../../search/rank.js';
import type { Target } from './connect.js';
import { query, transaction } from './connect.js';
import { LIST_SQL, LISTED_SQL } from './listing-sql.js';
import { SEARCHED_RESULTS_SQL } from './search-results.js';
import { LOADED_SQL } from './load-sql.js';

export { LIST_SQL };

interface EventRow {
  seq: string;
  ts: Date;
  type: string;
  /** The json column's own text: an event a newer chatkeep wrote is kept exactly as it is. */
  payload: string;
}

interface LoadRow {
  part: number;
  seq: string | null;
  ts: Date | null;
  type: string | null;
  payload: string | null;
}

/** Reads a session's snapshot and events in one consistent view (load-sql.ts). */
export async function loadSession(pool: Pool, target: Target, id: string, options: LoadOptions): Promise<StoredSession> {
  const all = await query<LoadRow>(pool, target, LOADED_SQL, [id]);
  const head = all[0]?.part === 0 ? all[0] : undefined;
  const session = head ? { snapshot: head.payload, created_at: head.ts! } : undefined;
  const rows: EventRow[] = all.filter((r) => r.part === 1).map((r) => ({ seq: r.seq!, ts: r.ts!, type: r.type!, payload: r.payload! }));
  const kept = all.filter((r) => r.part === 2).map((r) => quarantined(r.seq!));
  if (!session) throw new UnknownSessionError(id);
  const damage: string[] = [];
  const notices: string[] = [];
  let snapshot: SessionSnapshot | undefined;
  let snapshotDamaged = false;
  let salvage: Salvage | undefined;
  if (session.snapshot !== null) {
    try {
      // A newer schemaVersion throws FutureSchemaError here, before anything is changed.
      snapshot = await decodeSnapshot(session.snapshot, `${id} in ${target.location}`);
    } catch (err) {
      if (!(err instanceof DamagedFileError)) throw err;
      snapshotDamaged = true;
      salvage = salvageSnapshot(session.snapshot);
      damage.push(`snapshot: ${err.reason}`);
      if (options.quarantine) {
        const where = await quarantine(pool, target, id, err.reason, session.snapshot, options.now);
        kept.push(where);
        notices.push(`The snapshot was damaged (${err.reason}); it was moved to ${where}.`);
      } else notices.push(`The snapshot was damaged (${err.reason}); it was left in place.`);
    }
  }
  const events: SessionEvent[] = [];
  const futureEvents: FutureEvent[] = [];
  let bad = 0;
  for (const row of rows) {
    const [seq, ts] = [Number(row.seq), row.ts.toISOString()];
    const event = readEvent({ seq, ts, type: row.type, payload: JSON.parse(row.payload) as unknown }, rowLine(seq, ts, row.type, row.payload));
    if (event && 'known' in event) events.push(event.known);
    else if (event) futureEvents.push(event.future);
    else bad++;
  }
  if (bad > 0) {
    damage.push(`events: ${bad} damaged row(s)`);
    notices.push(`${bad} event row(s) were damaged and skipped; every readable event was loaded.`);
  }
  return { snapshot, events, futureEvents, damage, notices, snapshotDamaged, ...(salvage ? { salvage } : {}), createdAt: session.created_at, ...(kept.length > 0 ? { aside: kept } : {}) };
}

/** Moves a damaged snapshot into `chatkeep.quarantine` (kept, never overwritten), in one transaction. */
async function quarantine(pool: Pool, target: Target, id: string, reason: string, content: string, now: Date): Promise<string> {
  const n = await transaction(pool, target, async (client) => {
    const kept = await client.query<{ n: string }>(
      'INSERT INTO chatkeep.quarantine (session_id, part, reason, at, content) VALUES ($1, $2, $3, $4, $5) RETURNING n',
      [id, 'snapshot', reason, now, content],
    );
    await client.query('UPDATE chatkeep.sessions SET snapshot = NULL, snapshot_bytes = NULL, snapshot_at = NULL, snapshot_version = snapshot_version + 1 WHERE id = $1', [id]);
    return kept.rows[0]!.n;
  });
  return quarantined(n);
}

/** How a quarantined snapshot is named to people: the row that keeps it. */
function quarantined(n: string): string {
  return `chatkeep.quarantine (n = ${n})`;
}

interface ListRow {
  id: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  message_count: number;
  live: SessionStatus;
  project_path: string;
  journal_seq: number;
  input_tokens: number;
  output_tokens: number;
  branch: string | null;
  by_model: ModelUsage[] | null;
  problem: SessionProblem | null;
  schema_version: number | null;
  parent_id: string | null;
  fork_point: number | null;
  shared_by: string | null;
  title_source: TitleSource | null;
  archived_messages: number | null;
}

/** The listing rows of these projects, newest first: with `newest`, only the newest that many of each project. */
export async function listRows(pool: Pool, target: Target, projectKeys: readonly string[], newest?: number): Promise<IndexRow[]> {
  return (await query<ListRow>(pool, target, LISTED_SQL, [projectKeys, newest ?? null])).map(rowOf);
}

/**
 * A search's result as read: its listing row, the best message's number and hits where it was
 * found there (`at`), and the message its snippet comes from (when one was asked for and is readable).
 */
export interface SearchedRow {
  row: IndexRow;
  at?: { message: number; hits: number };
  best?: SearchableMessage;
}

/**
 * The listing rows of these sessions of these projects (any order), the listing narrowed to them,
 * each with its message numbered `messages[i]` (null: none) for the snippet, or where `find[i]` its
 * best message for the folded query found: one statement, by the server's function (search-results.ts).
 */
export async function searchedRows(
  pool: Pool,
  target: Target,
  projectKeys: readonly string[],
  ids: readonly string[],
  messages: readonly (number | null)[],
  folded: string,
  find: readonly boolean[],
): Promise<SearchedRow[]> {
  const rows = await query<ListRow & BestColumns>(pool, target, SEARCHED_RESULTS_SQL, [projectKeys, ids, messages, folded, find]);
  return rows.map((r) => {
    const found: SearchedRow = { row: rowOf(r) };
    if (r.best !== null) found.at = { message: r.best, hits: r.best_hits };
    if (r.best_role !== null) found.best = { role: r.best_role, content: r.best_content, timestamp: new Date(r.best_at), archived: r.best_archived };
    return found;
  });
}

/** The best message's columns of a search's row (search-results.ts). */
type BestColumns = ({ best: number; best_hits: number } | { best: null; best_hits: null }) &
  ({ best_role: Role; best_at: number; best_archived: boolean; best_content: string } | { best_role: null; best_at: null; best_archived: null; best_content: null });

function rowOf(r: ListRow): IndexRow {
  const newer = r.schema_version !== null && r.schema_version > SCHEMA_VERSION;
  const problem: SessionProblem | null = newer
    ? { kind: 'newer-version', detail: `schemaVersion ${r.schema_version}; this chatkeep reads up to ${SCHEMA_VERSION}` }
    : r.problem;
  return {
    id: r.id,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    messageCount: r.message_count,
    status: r.live,
    project: r.project_path,
    journalSeq: r.journal_seq,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    ...(problem ? { problem } : {}),
    ...(r.branch ? { branch: r.branch } : {}),
    ...(r.by_model?.length ? { byModel: r.by_model } : {}),
    ...(r.parent_id !== null ? { parentId: r.parent_id, forkPoint: r.fork_point ?? 0 } : {}),
    ...(r.shared_by !== null ? { owner: r.shared_by } : {}),
    ...(r.title_source !== null ? { titleSource: r.title_source } : {}),
    ...(r.archived_messages !== null ? { archivedMessages: r.archived_messages } : {}),
  };
}

/** A session's ID and project key, found by ID or unique ID prefix (which the manager validated). */
export async function findSession(pool: Pool, target: Target, wanted: string): Promise<{ id: string; key: string; path: string }> {
  type Found = { id: string; project_key: string; project_path: string };
  const columns = 'SELECT id, project_key, project_path FROM chatkeep.sessions WHERE trashed_at IS NULL AND';
  let found = await query<Found>(pool, target, `${columns} id = $1`, [wanted]);
  if (found.length === 0) {
    // A trashed session is not found, but the person typing its ID is told where it went: before
    // prefixes are tried, so a trashed `X` is not taken for a prefix of a live `X-2`.
    const trashed = await query(pool, target, 'SELECT 1 FROM chatkeep.sessions WHERE id = $1 AND trashed_at IS NOT NULL', [wanted]);
    if (trashed.length > 0) throw new TrashedSessionError(wanted);
    // `_` is a LIKE wildcard and may occur in IDs; the C collation lets the primary key serve the prefix.
    const pattern = `${wanted.replace(/[\\%_]/g, '\\$&')}%`;
    found = await query<Found>(pool, target, `${columns} id LIKE $1 ORDER BY id LIMIT 1000`, [pattern]);
  }
  if (found.length === 1) return { id: found[0]!.id, key: found[0]!.project_key, path: found[0]!.project_path };
  if (found.length > 1) throw new AmbiguousIdError(wanted, found.map((f) => f.id));
  throw new UnknownSessionError(wanted);
}
