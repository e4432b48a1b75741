/**
 * Full-text search on PostgreSQL (issue 11 item 4): the same results as the file store, from an
 * index in the database that any machine's search brings up to date.
 *
 * The query is literal and matches inside words (`ession` finds `session`), so word lexemes
 * (`to_tsvector`) cannot narrow it: they only find whole words. The index instead keeps, per
 * message, its folded text (src/search/fold.ts) and a tsvector of every 3-character sequence
 * in it, with a GIN index: a message holding the query holds all of the query's sequences, so
 * `grams @@ 'a' & 'b' & …` finds a superset, and `strpos` on the folded text keeps the exact
 * matches. Both are core PostgreSQL (14 and newer; no extension such as pg_trgm needed).
 * Queries shorter than 3 characters, and messages too long for a tsvector, are matched by
 * `strpos` alone. Hits are counted in SQL as `countOccurrences` counts them; scoring, ranking
 * and snippets are src/search/'s, as for every store.
 *
 * Like the file store's index, it is brought up to date when a search runs, not per chat turn:
 * a session whose snapshot or events changed since it was indexed (`snapshot_version` and its
 * last event's seq) is read again without its lock, so a live session's messages that are only
 * in its events are found too.
 */
import type { Pool } from 'pg';
import { fold, foldQuery } from '../../search/fold.js';
import { rank, score, searchableMessages, toResult, type MessageHits, type Scored } from '../../search/rank.js';
import type { SearchIndexReport, SearchResults } from '../../search/types.js';
import type { IndexRow } from '../../session/index-row.js';
import { summaryFromRow } from '../../session/index-row.js';
import type { Role, SessionSnapshot } from '../../session/types.js';
import type { Target } from './connect.js';
import { query, transaction } from './connect.js';

/** Sessions read at once while indexing. */
const READ_BATCH = 16;
/** Longer folded messages get no grams (a tsvector holds under 1 MB of lexemes; 3 characters take at most 12 bytes + 4). */
const MAX_GRAMMED = 60_000;
/** The query's sequences used to narrow (any subset finds a superset; a few are as selective as all). */
const MAX_QUERY_GRAMS = 24;

export interface SearchContext {
  pool: Pool;
  target: Target;
  /** These projects' listing rows, newest first. */
  list(projectKeys: string[]): Promise<IndexRow[]>;
  /** A session as a lock-free reading gives it (snapshot with its events applied); undefined when unreadable. */
  read(id: string, projectPath: string): Promise<SessionSnapshot | undefined>;
}

interface VersionRow {
  id: string;
  project_key: string;
  project_path: string;
  version: string;
  indexed: string | null;
}

const VERSIONS_SQL = `SELECT s.id, s.project_key, s.project_path, d.version AS indexed,
    s.snapshot_version || '/' || coalesce((SELECT max(e.seq) FROM chatkeep.events e WHERE e.session_id = s.id), 0) AS version
  FROM chatkeep.sessions s LEFT JOIN chatkeep.search_sessions d ON d.session_id = s.id
  WHERE s.project_key = ANY($1) AND s.trashed_at IS NULL`;

/** The sequences of a message, computed by the server (in its characters, as `strpos` counts them). */
const INSERT_MESSAGES_SQL = `INSERT INTO chatkeep.search_messages (session_id, n, role, at, archived, content, folded, grams)
  SELECT m.session_id, m.n, m.role, m.at, m.archived, m.content, m.folded,
    CASE WHEN char_length(m.folded) <= ${MAX_GRAMMED} THEN array_to_tsvector(ARRAY(
      SELECT DISTINCT substr(m.folded, i, 3) FROM generate_series(1, char_length(m.folded) - 2) AS i)) END
  FROM unnest($1::text[], $2::int[], $3::text[], $4::float8[], $5::bool[], $6::json[], $7::text[])
    AS m(session_id, n, role, at, archived, content, folded)
  JOIN chatkeep.search_sessions d ON d.session_id = m.session_id
  ON CONFLICT DO NOTHING`;

/** The query's sequences as a tsquery (`'abc' & 'bcd' & …`, each quoted as tsquery input wants). */
const QUERY_GRAMS_SQL = `SELECT string_agg('''' || replace(replace(g, '\\', '\\\\'), '''', '''''') || '''', ' & ') AS grams
  FROM (SELECT DISTINCT substr($1, i, 3) AS g FROM generate_series(1, char_length($1) - 2) AS i LIMIT ${MAX_QUERY_GRAMS}) t`;

/** Per session: hits (non-overlapping, as `countOccurrences`), and the message with the most (the latest of equals). */
export const hitsSql = (narrow: boolean): string => `SELECT m.session_id, sum(h.hits)::int AS hits,
    (array_agg(m.n ORDER BY h.hits DESC, m.n DESC))[1] AS best, max(h.hits)::int AS best_hits
  FROM chatkeep.search_messages m JOIN chatkeep.sessions s ON s.id = m.session_id
  CROSS JOIN LATERAL (SELECT (char_length(m.folded) - char_length(replace(m.folded, $2, ''))) / char_length($2) AS hits) h
  WHERE s.project_key = ANY($1) AND s.trashed_at IS NULL AND strpos(m.folded, $2) > 0
  ${narrow ? 'AND (m.grams @@ $3::tsquery OR m.grams IS NULL)' : ''}
  GROUP BY m.session_id`;

export async function searchSessions(
  ctx: SearchContext,
  text: string,
  projects: readonly { key: string; path: string }[],
  limit = 20,
): Promise<SearchResults> {
  const q = foldQuery(text);
  const keys = projects.map((p) => p.key);
  const [rows, versions] = await Promise.all([ctx.list(keys), query<VersionRow>(ctx.pool, ctx.target, VERSIONS_SQL, [keys])]);
  const index = await upToDate(ctx, projects, versions);
  const hits = q.folded === '' ? new Map<string, MessageHits>() : await countHits(ctx, keys, q.folded);
  const found: Scored[] = [];
  for (const row of rows) {
    const s = score(row, q.folded, hits.get(row.id) ?? { hits: 0 });
    if (s) found.push({ ...s, session: summaryFromRow(row) });
  }
  const ranked = rank(found, limit);
  const messages = await bestMessages(ctx, ranked);
  return {
    query: q.text,
    total: found.length,
    results: ranked.map((s) => toResult(s, q.folded, messages.get(s.session.id))),
    index,
  };
}

/** Indexes again every session changed since it was indexed; one report per project, as the file store gives. */
async function upToDate(ctx: SearchContext, projects: readonly { key: string; path: string }[], versions: VersionRow[]): Promise<SearchIndexReport[]> {
  // In ID order: two searches indexing the same sessions at once take their rows in one order.
  const stale = versions.filter((v) => v.indexed !== v.version).sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let start = 0; start < stale.length; start += READ_BATCH) {
    const batch = stale.slice(start, start + READ_BATCH);
    const snapshots = await Promise.all(batch.map((v) => ctx.read(v.id, v.project_path).catch(() => undefined)));
    await store(ctx, batch, snapshots);
  }
  return projects.map((p) => {
    const mine = versions.filter((v) => v.project_key === p.key);
    const changed = stale.filter((v) => v.project_key === p.key).length;
    const state = changed === 0 ? 'fresh' : mine.every((v) => v.indexed === null) ? 'missing' : 'stale';
    return { project: p.path, state, reindexed: changed };
  });
}

/** Replaces these sessions' entries (a session that could not be read is indexed empty until it changes). */
async function store(ctx: SearchContext, batch: VersionRow[], snapshots: (SessionSnapshot | undefined)[]): Promise<void> {
  const m = { session: [] as string[], n: [] as number[], role: [] as Role[], at: [] as number[], archived: [] as boolean[], content: [] as string[], folded: [] as string[] };
  batch.forEach((v, i) => {
    const snapshot = snapshots[i];
    (snapshot ? searchableMessages(snapshot) : []).forEach((message, n) => {
      m.session.push(v.id);
      m.n.push(n);
      m.role.push(message.role);
      m.at.push(message.timestamp.getTime());
      m.archived.push(message.archived);
      m.content.push(JSON.stringify(message.content));
      m.folded.push(fold(message.content));
    });
  });
  const ids = batch.map((v) => v.id);
  await transaction(ctx.pool, ctx.target, async (client) => {
    await client.query('DELETE FROM chatkeep.search_sessions WHERE session_id = ANY($1)', [ids]);
    // A session deleted meanwhile is skipped (its row is gone: nothing to index); one that a
    // search elsewhere indexed meanwhile keeps that entry.
    await client.query(
      `INSERT INTO chatkeep.search_sessions (session_id, version)
       SELECT v.id, v.version FROM unnest($1::text[], $2::text[]) AS v(id, version) JOIN chatkeep.sessions s ON s.id = v.id
       ON CONFLICT DO NOTHING`,
      [ids, batch.map((v) => v.version)],
    );
    if (m.session.length > 0) {
      await client.query(INSERT_MESSAGES_SQL, [m.session, m.n, m.role, m.at, m.archived, m.content, m.folded]);
    }
  });
}

async function countHits(ctx: SearchContext, keys: string[], folded: string): Promise<Map<string, MessageHits>> {
  let grams: string | null = null;
  if ([...folded].length >= 3) grams = (await query<{ grams: string | null }>(ctx.pool, ctx.target, QUERY_GRAMS_SQL, [folded]))[0]?.grams ?? null;
  const rows = await query<{ session_id: string; hits: number; best: number; best_hits: number }>(
    ctx.pool,
    ctx.target,
    hitsSql(grams !== null),
    grams !== null ? [keys, folded, grams] : [keys, folded],
  );
  return new Map(rows.map((r) => [r.session_id, { hits: r.hits, best: { message: r.best, hits: r.best_hits } }]));
}

/** The message each result's snippet comes from, one query for all of them. */
async function bestMessages(ctx: SearchContext, ranked: Scored[]): Promise<Map<string, Parameters<typeof toResult>[2]>> {
  const wanted = ranked.filter((s) => s.best);
  if (wanted.length === 0) return new Map();
  const rows = await query<{ session_id: string; role: Role; at: number; archived: boolean; content: string }>(
    ctx.pool,
    ctx.target,
    `SELECT m.session_id, m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
     JOIN unnest($1::text[], $2::int[]) AS w(id, n) ON m.session_id = w.id AND m.n = w.n`,
    [wanted.map((s) => s.session.id), wanted.map((s) => s.best!.message)],
  );
  return new Map(rows.map((r) => [r.session_id, { role: r.role, content: r.content, timestamp: new Date(r.at), archived: r.archived }]));
}
