/**
 * Full-text search on PostgreSQL (docs/design.md §18): the same results as the file store, from
 * search rows that each snapshot writes in its own transaction (search-rows.ts), so a search
 * reads and never has to catch up first.
 *
 * The query is literal and matches inside words (`ession` finds `session`), so word lexemes
 * (`to_tsvector`) cannot narrow it: they only find whole words. Each message's folded text
 * (src/search/fold.ts) is narrowed by 3-character sequences instead: with `pg_trgm` (when the
 * server has it; the migration creates the index) by `folded LIKE '%query%'` over a trigram
 * index; with core PostgreSQL 14 only, by a tsvector of every sequence in the message and a GIN
 * index (`grams @@ 'abc' & 'bcd' & …`). Either finds a superset; `strpos` keeps the exact
 * matches. Queries shorter than 3 characters, and messages too long for a tsvector, are matched
 * by `strpos` alone. Hits are counted in SQL as `countOccurrences` counts them; scoring, ranking
 * and snippets are src/search/'s, as for every store.
 *
 * One query finds every matching session with what ranking needs (hits, the best message, the
 * title's hits, the time), and flags the few sessions its rows do not cover: those with events
 * past their last snapshot (a live session), read without their lock and searched in memory;
 * and those whose snapshot was written without rows (a database from before search rows, a
 * quarantined snapshot), read and indexed now. Listing rows and snippet messages are then read
 * for the results returned only.
 */
import type { Pool } from 'pg';
import { countOccurrences, fold, foldQuery } from '../../search/fold.js';
import { countHits, rank, searchableMessages, toResult, type MessageHits, type SearchableMessage } from '../../search/rank.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../../session/api/search-data.js';
import type { IndexRow } from '../../session/api/listing.js';
import { summaryFromRow } from '../../session/format/index-row.js';
import type { Role, SessionSnapshot } from '../../session/api/data.js';
import type { Target } from './connect.js';
import { query, transaction } from './connect.js';
import { writeSearchRows } from './search-rows.js';
import { SEARCH_LIKE_SETTING } from './search-narrowing.js';
import { SEES_ALL, VISIBLE_SESSIONS_SQL } from './listing-index.js';
import { quoteLiteral } from './quote.js';
import { LAST_EVENT_SEQ } from './event-log.js';
import { bySessionSql } from './search-path.js';
import { SEARCHER } from './search-owner.js';

/** Sessions read at once when some are not covered by their rows. */
const READ_BATCH = 16;
/** The query's sequences used to narrow (any subset finds a superset; a few are as selective as all). */
const MAX_QUERY_GRAMS = 24;
/** Listing rows read at once for the results. */
const ROW_BATCH = 200;

export interface SearchContext {
  pool: Pool;
  target: Target;
  /** The listing rows of these sessions (of these projects), in any order; a session the listing hides is left out. */
  rows(projectKeys: string[], ids: string[]): Promise<IndexRow[]>;
  /** A session as a lock-free reading gives it (snapshot with its events applied); undefined when unreadable. */
  read(id: string, projectPath: string): Promise<SessionSnapshot | undefined>;
}

/** How the server narrows: a trigram index (`pg_trgm`), or the core tsvector of sequences. */
type Narrowing = 'trgm' | 'grams';
const narrowings = new WeakMap<Pool, Promise<Narrowing>>();

function narrowingOf(ctx: SearchContext): Promise<Narrowing> {
  let known = narrowings.get(ctx.pool);
  if (!known) {
    known = query<{ trgm: boolean }>(ctx.pool, ctx.target, "SELECT to_regclass('chatkeep.search_messages_trgm') IS NOT NULL AS trgm").then((r) =>
      r[0]?.trgm ? 'trgm' : 'grams',
    );
    // Either answer is right for every row (rows without sequences are matched by strpos); asked once per pool.
    narrowings.set(ctx.pool, known);
    known.catch(() => narrowings.delete(ctx.pool));
  }
  return known;
}

/** One matching (or not covered) session: `$1` project keys, `$2` the folded query, `$3` the narrowing's argument. */
interface MatchRow {
  id: string;
  project_key: string;
  project_path: string;
  updated_at: number;
  hits: number | null;
  best: number | null;
  best_hits: number | null;
  title_hits: number;
  /** The title as listed, where the rows' folded title does not say it (changed since, or not covered). */
  title: string | null;
  title_stale: boolean;
  /** The snapshot was written without rows: read and indexed now (`version`: its snapshot version). */
  stale: boolean;
  version: string;
  /** Events past the rows' last: read and searched in memory. */
  pending: boolean;
}

/** Non-overlapping occurrences of `$2` in `column`, as `countOccurrences` counts them (in bytes: no character count to take). */
const HITS_IN = (column: string): string => `(octet_length(${column}) - octet_length(replace(${column}, $2, ''))) / octet_length($2)`;

/**
 * Messages holding `$2`: with a trigram index, `LIKE` is exact on its own; the sequences' tsvector
 * finds a superset. A session's own messages are matched by `strpos` (`none`), which no index
 * can serve, so each session's read stays on its primary key: with `LIKE` there, the single
 * user's search for a word in every message of 2,000 sessions, right after they were written,
 * ran past the 15 s query timeout (an index of the word's candidates per session, it seems:
 * the plan was not caught), and took 0.6 s with `strpos`.
 */
const HOLDS: Record<Narrowing | 'none', string> = {
  trgm: 'm.folded LIKE $3',
  grams: 'strpos(m.folded, $2) > 0 AND (m.grams @@ $3::tsquery OR m.grams IS NULL)',
  none: 'strpos(m.folded, $2) > 0',
};

/** Packs (hits, message) so that one `max` finds the message with the most hits, the latest of equals. */
const PACK = 2 ** 32;

/** What the match needs of a session (`s`) and of its search rows' facts (`d`). */
const VIS_COLUMNS = `s.id, s.project_key, s.project_path, s.updated_at, s.title, s.snapshot_version, d.session_id AS d_id,
      d.snapshot_version AS d_version, d.seq AS d_seq, d.messages AS d_messages, d.title AS d_title, d.folded_title`;

/**
 * Every session of the projects `$1` that holds `$2` (the folded query; `$3` the narrowing's
 * argument) in its ID, title or messages, or that its rows do not cover. Per session: hits
 * (non-overlapping, as `countOccurrences`), and the message with the most (the latest of equals).
 * The hits are computed once (MATERIALIZED), whatever the planner thinks of their number, by one
 * of two branches, the other never run (its gate is a one-time filter): through the narrowing
 * index, or session by session (search-path.ts).
 *
 * The sessions (`vis`) by one of two branches too, gated the same way. A role that sees only its
 * own and shared sessions reads them over VISIBLE_SESSIONS_SQL, and their search facts as two
 * sets, each read over an index and joined whole: its own (by owner, each passing row security
 * by its `owner`: search-owner.ts) and those of the sessions shared with it (by key, each
 * checked against its session); each session's last event by key. A join to every search fact
 * would have row security check every row of the server. A role that sees every session reads
 * them all anyway, and joins them whole.
 */
export const matchSql = (narrowing: Narrowing | undefined): string => `WITH vis AS MATERIALIZED (
    SELECT ${VIS_COLUMNS}, ${LAST_EVENT_SEQ('s.id')} AS last_seq
    FROM ${VISIBLE_SESSIONS_SQL} s LEFT JOIN (
        SELECT d.* FROM chatkeep.search_sessions d WHERE d.owner = ${SEARCHER}
        UNION ALL SELECT d.* FROM chatkeep.search_sessions d WHERE d.owner <> ${SEARCHER}
          AND d.session_id IN (SELECT sh.session_id FROM chatkeep.shares sh WHERE sh.grantee IN (current_user, 'public'))
      ) d ON d.session_id = s.id
    WHERE NOT ${SEES_ALL} AND s.project_key = ANY($1) AND s.trashed_at IS NULL
    UNION ALL
    SELECT ${VIS_COLUMNS}, ev.last_seq
    FROM chatkeep.sessions s LEFT JOIN chatkeep.search_sessions d ON d.session_id = s.id
      LEFT JOIN (SELECT session_id, max(seq) AS last_seq FROM chatkeep.events GROUP BY session_id) ev ON ev.session_id = s.id
    WHERE ${SEES_ALL} AND s.project_key = ANY($1) AND s.trashed_at IS NULL),
  by_session AS MATERIALIZED (${bySessionSql(narrowing !== undefined)}),
  hits AS MATERIALIZED (
    SELECT x.session_id, sum(x.hits)::int AS hits, max(x.hits::bigint * ${PACK} + x.n) AS best
    FROM (SELECT m.session_id, m.n, ${HITS_IN('m.folded')} AS hits FROM chatkeep.search_messages m
      WHERE $2 <> '' AND NOT (SELECT yes FROM by_session) AND ${HOLDS[narrowing ?? 'none']}) x
    GROUP BY x.session_id
    UNION ALL
    SELECT v.id, x.hits, x.best FROM vis v CROSS JOIN LATERAL (
      SELECT sum(y.hits)::int AS hits, max(y.hits::bigint * ${PACK} + y.n) AS best
      FROM (SELECT m.n, ${HITS_IN('m.folded')} AS hits FROM chatkeep.search_messages m WHERE m.session_id = v.id AND ${HOLDS.none}) y) x
    WHERE $2 <> '' AND (SELECT yes FROM by_session) AND x.hits IS NOT NULL)
  SELECT s.id, s.project_key, s.project_path, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_at, h.hits, (h.best % ${PACK})::int AS best, (h.best / ${PACK})::int AS best_hits,
    CASE WHEN $2 = '' OR s.folded_title IS NULL THEN 0 ELSE ${HITS_IN('s.folded_title')} END AS title_hits,
    s.d_title IS DISTINCT FROM s.title AS title_stale,
    (s.d_id IS NULL OR s.d_version IS DISTINCT FROM s.snapshot_version) AS stale,
    coalesce(s.last_seq > s.d_seq, false) AS pending,
    CASE WHEN s.d_title IS DISTINCT FROM s.title OR s.d_id IS NULL OR s.last_seq > s.d_seq
      OR s.d_version IS DISTINCT FROM s.snapshot_version THEN s.title END AS title,
    s.snapshot_version::text AS version
  FROM vis s LEFT JOIN hits h ON h.session_id = s.id
  WHERE h.session_id IS NOT NULL OR strpos(lower(s.id), $2) > 0
    OR strpos(s.folded_title, $2) > 0 OR s.d_title IS DISTINCT FROM s.title OR s.d_id IS NULL
    OR s.d_version IS DISTINCT FROM s.snapshot_version OR s.last_seq > s.d_seq`;

/**
 * The match query's transaction. Hash joins and hash aggregation whatever the statistics say:
 * right after a bulk write, before autovacuum has counted the rows, the planner takes the
 * tables for nearly empty and joins 10,000 sessions to their hits by nested loops, or sorts
 * 200,000 hits on disk to group them (seconds for a common word). Memory for the hash tables of
 * every hit of a common word; no JIT: compiling that plan would cost more than running it.
 */
const MATCH_BEGIN = "BEGIN READ ONLY; SET LOCAL enable_nestloop = off; SET LOCAL enable_sort = off; SET LOCAL work_mem = '64MB'; SET LOCAL jit = off";

/** The argument `$3` of the narrowing (none for a query under 3 characters). */
function narrowingArgument(narrowing: Narrowing, folded: string): string | undefined {
  const chars = Array.from(folded);
  if (chars.length < 3) return undefined;
  if (narrowing === 'trgm') return `%${folded.replace(/[\\%_]/g, '\\$&')}%`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length && grams.size < MAX_QUERY_GRAMS; i++) grams.add(chars.slice(i, i + 3).join(''));
  // Each sequence quoted as tsquery input wants it.
  return [...grams].map((g) => `'${g.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`).join(' & ');
}

/** A match before its listing row is read. */
interface Found extends MessageHits {
  session: { id: string; updatedAt: Date };
  idMatch: boolean;
  titleHits: number;
  row: MatchRow;
  /** Its messages, when it was read here (not covered by its rows). */
  messages?: SearchableMessage[];
}

export async function searchSessions(
  ctx: SearchContext,
  text: string,
  projects: readonly { key: string; path: string }[],
  limit = 20,
): Promise<SearchResults> {
  const q = foldQuery(text);
  const keys = projects.map((p) => p.key);
  const narrowing = await narrowingOf(ctx);
  const argument = narrowingArgument(narrowing, q.folded);
  const sql = matchSql(argument === undefined ? undefined : narrowing);
  const params = argument === undefined ? [keys, q.folded] : [keys, q.folded, argument];
  // The trigram pattern also narrows by policy, so that a member's search uses the index
  // (search-narrowing.ts): set with the transaction's BEGIN, not in a round trip of its own.
  const begin = argument !== undefined && narrowing === 'trgm' ? `${MATCH_BEGIN}; SET LOCAL ${SEARCH_LIKE_SETTING} = ${quoteLiteral(argument)}` : MATCH_BEGIN;
  const rows = await transaction(ctx.pool, ctx.target, async (client) => (await client.query<MatchRow>(sql, params)).rows, begin);
  const found = foundOf(rows, await readUncovered(ctx, rows), q.folded);
  // The first `limit` ranked; all of them only when the listing hides some of those (rare).
  let shown = await resultsOf(ctx, keys, rank(found, limit), limit, q.folded);
  if (limit > 0 && shown.results.length < limit && found.length > limit) shown = await resultsOf(ctx, keys, rank(found, 0), limit, q.folded);
  return { query: q.text, total: found.length - shown.hidden, results: shown.results, index: reports(projects, rows) };
}

/**
 * The matches among `rows`, scored as `score` scores them: from the hits counted in SQL, or in
 * memory for the sessions read here (`read`). Built without spreading objects: a word in nearly
 * every message makes one per session the searcher may read (~10,000 at a million sessions).
 */
function foundOf(rows: readonly MatchRow[], read: ReadonlyMap<string, SearchableMessage[]>, folded: string): Found[] {
  const found: Found[] = [];
  for (const row of rows) {
    const messages = read.get(row.id);
    const counted = messages ? countHits(messages, folded) : undefined;
    const hits = counted ? counted.hits : (row.hits ?? 0);
    // Where the rows' folded title does not say it, the title as listed is folded here (as `score` does).
    const titleHits = row.title_stale || messages ? countOccurrences(fold(row.title ?? ''), folded) : row.title_hits;
    // IDs are ASCII (`[A-Za-z0-9._-]`): lowercasing folds them.
    const idMatch = row.id.toLowerCase().includes(folded);
    if (!idMatch && titleHits === 0 && hits === 0) continue;
    const f: Found = { hits, idMatch, titleHits, session: { id: row.id, updatedAt: new Date(row.updated_at) }, row };
    const best = counted ? counted.best : row.best !== null ? { message: row.best, hits: row.best_hits ?? 0 } : undefined;
    if (best) f.best = best;
    if (messages) f.messages = messages;
    found.push(f);
  }
  return found;
}

/** Reads the sessions the rows do not cover; indexes those whose snapshot has none (best effort: the rows are a cache of the sessions). */
async function readUncovered(ctx: SearchContext, rows: MatchRow[]): Promise<Map<string, SearchableMessage[]>> {
  const out = new Map<string, SearchableMessage[]>();
  // In ID order: two searches indexing the same sessions at once take their rows in one order.
  const uncovered = rows.filter((r) => r.stale || r.pending).sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let start = 0; start < uncovered.length; start += READ_BATCH) {
    const batch = uncovered.slice(start, start + READ_BATCH);
    const snapshots = await Promise.all(batch.map((r) => ctx.read(r.id, r.project_path).catch(() => undefined)));
    const stale = batch.flatMap((r, i) => (r.stale ? [{ row: r, snapshot: snapshots[i] }] : []));
    if (stale.length > 0) await index(ctx, stale).catch(() => undefined);
    batch.forEach((r, i) => out.set(r.id, snapshots[i] ? searchableMessages(snapshots[i]) : []));
  }
  return out;
}

/** Writes the rows of sessions read by a search, each only if no snapshot was written since it was read (its writer's rows win). */
async function index(ctx: SearchContext, sessions: { row: MatchRow; snapshot: SessionSnapshot | undefined }[]): Promise<void> {
  await transaction(ctx.pool, ctx.target, async (client) => {
    const ids = sessions.map((s) => s.row.id);
    const now = await client.query<{ id: string; version: string }>(
      // Search rows are their session's owner's to write: another's session shared is searched as read, never indexed.
      'SELECT id, snapshot_version::text AS version FROM chatkeep.sessions WHERE id = ANY($1) AND owner = current_user ORDER BY id FOR UPDATE',
      [ids],
    );
    const current = new Map(now.rows.map((r) => [r.id, r.version]));
    for (const { row, snapshot } of sessions) if (current.get(row.id) === row.version) await writeSearchRows(client, row.id, snapshot);
  });
}

/** The results: listing rows and snippet messages of the first `limit` (0: all) of `ranked`, skipping sessions the listing hides. */
async function resultsOf(ctx: SearchContext, keys: string[], ranked: Found[], limit: number, folded: string): Promise<{ results: SearchResult[]; hidden: number }> {
  const results: SearchResult[] = [];
  let hidden = 0;
  const wanted = limit > 0 ? limit : ranked.length;
  for (let start = 0; start < ranked.length && results.length < wanted; ) {
    const batch = ranked.slice(start, start + Math.min(ROW_BATCH, Math.max(wanted - results.length, 1)));
    start += batch.length;
    const [rows, messages] = await Promise.all([ctx.rows(keys, batch.map((f) => f.row.id)), bestMessages(ctx, batch)]);
    const rowOf = new Map(rows.map((r) => [r.id, r]));
    for (const f of batch) {
      const row = rowOf.get(f.row.id);
      if (!row) {
        hidden++;
        continue;
      }
      if (results.length === wanted) break;
      const message = f.best && (f.messages ? f.messages[f.best.message] : messages.get(f.row.id));
      results.push(toResult({ ...f, session: summaryFromRow(row) }, folded, message || undefined));
    }
  }
  return { results, hidden };
}

/** The message each match's snippet comes from, one query for all of them (those read here have theirs). */
async function bestMessages(ctx: SearchContext, found: Found[]): Promise<Map<string, SearchableMessage>> {
  const wanted = found.filter((f) => f.best && !f.messages);
  if (wanted.length === 0) return new Map();
  const rows = await query<{ session_id: string; role: Role; at: number; archived: boolean; content: string }>(
    ctx.pool,
    ctx.target,
    `SELECT m.session_id, m.role, m.at, m.archived, m.content FROM chatkeep.search_messages m
     JOIN unnest($1::text[], $2::int[]) AS w(id, n) ON m.session_id = w.id AND m.n = w.n`,
    [wanted.map((f) => f.row.id), wanted.map((f) => f.best!.message)],
  );
  return new Map(rows.map((r) => [r.session_id, { role: r.role, content: r.content, timestamp: new Date(r.at), archived: r.archived }]));
}

/** One report per project, as the file store gives: what this search had to index first. */
function reports(projects: readonly { key: string; path: string }[], rows: MatchRow[]): SearchIndexReport[] {
  return projects.map((p) => {
    const reindexed = rows.filter((r) => r.stale && r.project_key === p.key).length;
    return { project: p.path, state: reindexed === 0 ? 'fresh' : 'stale', reindexed };
  });
}
