/**
 * Writing a session's row: issuing its ID (never twice), and recording a snapshot with the
 * listing columns taken from it, so that a listing reads columns, never snapshots.
 */
import { randomBytes } from 'node:crypto';
import type { ClientBase } from 'pg';
import { LockSupersededError } from '../../session/api/errors.js';
import type { ProjectInfo, SessionSnapshot } from '../../session/api/data.js';
import { archivedCount } from '../../session/format/index-row.js';
import { searchableMessages, type SearchableMessage } from '../../search/rank.js';
import { HOST } from './lock.js';
import { keyOf } from './project-key.js';
import { writeSearchRows } from './search-rows.js';

/** Records the project (its path on the machine that last used it). */
export async function recordProject(client: ClientBase, project: ProjectInfo): Promise<void> {
  await recordProjects(client, [project]);
}

/**
 * Records these projects in one statement, each once (the last path given for a key wins): a
 * batch of adopted sessions writes one version of its project's row, not one per session
 * (docs/internals.md, "The first search after a bulk write: a project's row once a batch").
 */
export async function recordProjects(client: ClientBase, projects: readonly ProjectInfo[]): Promise<void> {
  // ON CONFLICT may not touch one row twice in a statement.
  const paths = new Map(projects.map((p) => [keyOf(p), p.path]));
  await client.query(
    `INSERT INTO chatkeep.projects (key, path, host) SELECT k, p, $3 FROM unnest($1::text[], $2::text[]) AS t(k, p)
     ON CONFLICT (owner, key) DO UPDATE SET path = EXCLUDED.path, host = EXCLUDED.host, updated_at = now()`,
    [[...paths.keys()], [...paths.values()], HOST],
  );
}

/** Issues `id` if it never was (the ids table keeps every ID issued, also of sessions since deleted). */
export async function issueId(client: ClientBase, id: string): Promise<boolean> {
  return (await client.query('INSERT INTO chatkeep.ids (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [id])).rowCount === 1;
}

/** Numbered IDs tried before random ones. */
const NUMBERED = 20;

/**
 * The IDs a new session of second `base` tries, in order: `base`, `base-2`… a few, then random
 * suffixes. IDs are issued once across every role of the database, so a member who issues the
 * numbered IDs of the coming seconds ahead of time must not make anyone else's new chat fail:
 * nobody can issue the random ones ahead.
 */
export function* candidateIds(base: string): Generator<string> {
  for (let n = 1; n <= NUMBERED; n++) yield n === 1 ? base : `${base}-${n}`;
  for (let i = 0; i < 100; i++) yield `${base}-${randomBytes(6).readUIntBE(0, 6).toString(36)}`;
}

/** Creates the row of a newly issued ID (a trigger gives it its lock key). */
export async function insertSession(client: ClientBase, id: string, project: ProjectInfo, at: Date): Promise<void> {
  await client.query('INSERT INTO chatkeep.sessions (id, project_key, project_path, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [
    id,
    keyOf(project),
    project.path,
    at,
  ]);
}

/**
 * The columns a snapshot sets, its listing columns among them, in the order of `snapshotWrite`'s values;
 * the last two say what its search rows, written in the same transaction, hold (search-coverage.ts).
 */
const SNAPSHOT_COLUMNS = ['snapshot', 'snapshot_bytes', 'snapshot_at', 'schema_version', 'title', 'status', 'updated_at', 'message_count',
  'input_tokens', 'output_tokens', 'by_model', 'branch', 'journal_seq', 'created_at', 'parent_id', 'fork_point', 'title_source', 'archived_messages',
  'search_seq', 'search_messages'];

/**
 * What storing snapshot `s`, encoded as `text`, written at `at`, puts in its row and search rows:
 * the values of SNAPSHOT_COLUMNS, its searchable messages (their count is the row's), and the
 * text's bytes of UTF-8, each made once.
 */
function snapshotWrite(s: SessionSnapshot, text: string, at: Date): { values: unknown[]; messages: SearchableMessage[]; bytes: number } {
  const messages = searchableMessages(s);
  const bytes = Buffer.byteLength(text, 'utf8');
  const values = [text, bytes, at, s.schemaVersion, s.title, s.status, s.updatedAt, s.stats.messageCount, s.stats.inputTokens,
    s.stats.outputTokens, s.stats.byModel?.length ? JSON.stringify(s.stats.byModel) : null, s.git?.branch ?? null, s.journalSeq, s.createdAt,
    s.parentId ?? null, s.parentId !== undefined ? (s.forkPoint ?? 0) : null, s.titleSource ?? null, archivedCount(s), s.journalSeq, messages.length];
  return { values, messages, bytes };
}

/**
 * Session `$1`'s snapshot; with an epoch (the last parameter), only while the session is its
 * writer's. Its search rows are of this version (`search_version`): the caller writes them next,
 * in the same transaction.
 */
const UPDATE_SNAPSHOT_SQL = `UPDATE chatkeep.sessions SET ${SNAPSHOT_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')},
    problem = NULL, snapshot_version = snapshot_version + 1, search_version = snapshot_version + 1
  WHERE id = $1 AND ($${SNAPSHOT_COLUMNS.length + 2}::bigint IS NULL OR lock_epoch = $${SNAPSHOT_COLUMNS.length + 2})`;

/** A new session's row as its first snapshot leaves it, its search rows (written next) of that snapshot (a trigger gives it its lock key). */
const INSERT_SNAPSHOT_SQL = `INSERT INTO chatkeep.sessions (id, project_key, project_path, ${SNAPSHOT_COLUMNS.join(', ')}, snapshot_version, search_version)
  VALUES ($1, $2, $3, ${SNAPSHOT_COLUMNS.map((_, i) => `$${i + 4}`).join(', ')}, 1, 1)`;

/**
 * Puts a snapshot (its encoded text) in place, with the listing columns it implies, and its search
 * rows (search-rows.ts): run it in a transaction, so that they change together. With the
 * writer's `epoch`, only while it is the session's (else `LockSupersededError`).
 */
export async function storeSnapshot(client: ClientBase, s: SessionSnapshot, text: string, at: Date, epoch?: number): Promise<number> {
  const { values, messages, bytes } = snapshotWrite(s, text, at);
  const stored = await client.query(UPDATE_SNAPSHOT_SQL, [s.id, ...values, epoch ?? null]);
  if (epoch !== undefined && stored.rowCount === 0) throw new LockSupersededError(s.id, epoch);
  // Rows only for a snapshot that is stored.
  if (stored.rowCount === 1) await writeSearchRows(client, s.id, s, { messages });
  return bytes;
}

/**
 * Creates the row of a newly issued ID with its snapshot in place (one INSERT), then its search
 * rows: a session stored whole (import, copies) is written once, as it ends. Its row written
 * empty and then updated by the snapshot left a dead version of it in `sessions`, which the
 * first search after a bulk write pruned (docs/internals.md, "The first search after a bulk
 * write: each new row written once"). Run it in the transaction that issued the ID.
 */
export async function insertWithSnapshot(client: ClientBase, s: SessionSnapshot, text: string, project: ProjectInfo, at: Date): Promise<void> {
  const { values, messages } = snapshotWrite(s, text, at);
  await client.query(INSERT_SNAPSHOT_SQL, [s.id, keyOf(project), project.path, ...values]);
  await writeSearchRows(client, s.id, s, { fresh: true, messages });
}
