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
 * One query (search-match.ts, run by a server function that keeps its plan) finds every matching
 * session with what ranking needs (hits, the title's hits, the time) and the best message where it
 * comes with the count, and flags the few sessions its rows do not cover: those with events
 * past their last snapshot (a live session), read without their lock and searched in memory;
 * and those whose snapshot was written without rows (a database from before search rows, a
 * quarantined snapshot), read and indexed now. Listing rows and snippet messages (and the best
 * message the match left) are then read for the results returned only, in one statement (search-results.ts).
 */
import type { Pool } from 'pg';
import { countOccurrences, fold, foldQuery } from '../../search/fold.js';
import { summaryFromRow } from '../../session/format/index-row.js';
import { countHits, rank, searchableMessages, toResult, type MessageHits, type SearchableMessage } from '../../search/rank.js';
import type { SearchIndexReport, SearchResult, SearchResults } from '../../session/api/search-data.js';
import type { SessionSnapshot } from '../../session/api/data.js';
import type { SearchedRow } from './reading.js';
import type { Target } from './connect.js';
import { query, transaction } from './connect.js';
import { writeSearchRows } from './search-rows.js';
import { MATCHED_SQL, type MatchRow, type Narrowing } from './search-match.js';

/** Sessions read at once when some are not covered by their rows. */
const READ_BATCH = 16;
/** The query's sequences used to narrow (any subset finds a superset; a few are as selective as all). */
const MAX_QUERY_GRAMS = 24;
/** Listing rows read at once for the results. */
const ROW_BATCH = 200;

export interface SearchContext {
  pool: Pool;
  target: Target;
  /**
   * The listing rows of these sessions (of these projects), in any order, a session the listing
   * hides left out; each with its message numbered `messages[i]` (null: none wanted), or where
   * `find[i]` its best message for the folded query found there (`at`), in one statement.
   */
  results(projectKeys: string[], ids: string[], messages: (number | null)[], folded: string, find: boolean[]): Promise<SearchedRow[]>;
  /** A session as a lock-free reading gives it (snapshot with its events applied); undefined when unreadable. */
  read(id: string, projectPath: string): Promise<SessionSnapshot | undefined>;
}

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
  snippets = true,
): Promise<SearchResults> {
  const q = foldQuery(text);
  const keys = projects.map((p) => p.key);
  const narrowing = await narrowingOf(ctx);
  const argument = narrowingArgument(narrowing, q.folded);
  // One statement: the server's function sets the trigram policy's pattern itself (search-match.ts).
  const rows = await query<MatchRow>(ctx.pool, ctx.target, MATCHED_SQL, [keys, q.folded, argument ?? null, argument === undefined ? null : narrowing]);
  const found = foundOf(rows, await readUncovered(ctx, rows), q.folded);
  // The first `limit` ranked; all of them only when the listing hides some of those (rare).
  const shows = { limit, folded: q.folded, snippets };
  let shown = await resultsOf(ctx, keys, rank(found, limit), shows);
  if (limit > 0 && shown.results.length < limit && found.length > limit) shown = await resultsOf(ctx, keys, rank(found, 0), shows);
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

/**
 * The results: listing rows and (unless `snippets` is false) snippet messages of the first `limit`
 * (0: all) of `ranked`, skipping sessions the listing hides. Without snippets no message is read
 * and no best message found: the session browser searches all results at each keystroke so.
 */
async function resultsOf(
  ctx: SearchContext,
  keys: string[],
  ranked: Found[],
  { limit, folded, snippets }: { limit: number; folded: string; snippets: boolean },
): Promise<{ results: SearchResult[]; hidden: number }> {
  const results: SearchResult[] = [];
  let hidden = 0;
  const wanted = limit > 0 ? limit : ranked.length;
  for (let start = 0; start < ranked.length && results.length < wanted; ) {
    const batch = ranked.slice(start, start + Math.min(ROW_BATCH, Math.max(wanted - results.length, 1)));
    start += batch.length;
    // The listing rows and the snippets' messages in one statement: one round trip, on one of the
    // pool's connections (whose plans are kept: search-match.ts), for the results of a batch.
    // Those read here (not covered by their rows) have their messages already; a session with hits
    // whose best message the match left (search-hits.ts, `bestShown`) has it found there.
    const rows = await ctx.results(
      keys,
      batch.map((f) => f.row.id),
      batch.map((f) => (snippets && f.best && !f.messages ? f.best.message : null)),
      folded,
      batch.map((f) => snippets && !f.best && !f.messages && f.hits > 0),
    );
    const rowOf = new Map(rows.map((r) => [r.row.id, r]));
    for (const f of batch) {
      const found = rowOf.get(f.row.id);
      if (!found) {
        hidden++;
        continue;
      }
      if (results.length === wanted) break;
      if (found.at) f.best = found.at;
      const message = snippets && f.best && (f.messages ? f.messages[f.best.message] : found.best);
      results.push(toResult({ ...f, session: summaryFromRow(found.row) }, folded, message || undefined));
    }
  }
  return { results, hidden };
}

/**
 * One report per project, as the file store gives: what this search had to index first. The stale
 * rows counted in one pass: a word in nearly every message matches ~10,000 sessions of 11 projects
 * (a pass per project was ~3.5 ms of Node's CPU a search at 1,000,000 sessions).
 */
function reports(projects: readonly { key: string; path: string }[], rows: MatchRow[]): SearchIndexReport[] {
  const stale = new Map<string, number>();
  for (const r of rows) if (r.stale) stale.set(r.project_key, (stale.get(r.project_key) ?? 0) + 1);
  return projects.map((p) => {
    const reindexed = stale.get(p.key) ?? 0;
    return { project: p.path, state: reindexed === 0 ? 'fresh' : 'stale', reindexed };
  });
}
