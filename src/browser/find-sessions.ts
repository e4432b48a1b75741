/**
 * What the browser's query finds: one small function over today's search API, so a faster one
 * (incremental narrowing as the query grows) can take its place without the browser changing.
 */
import { fold } from '../search/fold.js';
import type { SessionSummary } from '../session/api/listing.js';
import type { SessionManager } from '../session/runtime/manager-api.js';

/** What a search found: IDs best first, and whether the search holds more than were asked for. */
export interface Found {
  ids: string[];
  more: boolean;
}

/**
 * The IDs of `rows` (the scope's listing) that `query` matches, best first: the full-text search
 * (message text, titles, IDs) in its order, then rows whose git branch or project path hold the
 * query (folded as the search folds), newest first. With `first`, the search's first that many
 * (`more` says whether it holds others: the browser paints those, then asks for every one);
 * without, every match.
 */
export async function findSessions(
  sessions: Pick<SessionManager, 'search'>,
  rows: readonly SessionSummary[],
  query: string,
  all: boolean,
  first?: number,
): Promise<Found> {
  const text = query.trim();
  if (text === '') return { ids: rows.map((row) => row.id), more: false };
  const scope = scopeOf(rows);
  // Only which sessions matched, best first: the browser shows no snippet (and making them was most of a search).
  const found = await sessions.search(text, { all, limit: first ?? 0, snippets: false });
  const ids = found.results.map((result) => result.session.id).filter((id) => scope.ids.has(id));
  // Branches and project paths are few: each is folded and tested once, and the rows walked only when one holds the query.
  const needle = fold(text);
  const held = (values: Map<string, string>): Set<string> => new Set([...values].filter(([, folded]) => folded.includes(needle)).map(([value]) => value));
  const branches = held(scope.branches);
  const projects = held(scope.projects);
  if (branches.size > 0 || projects.size > 0) {
    const seen = new Set(ids);
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      if ((row.branch !== undefined && branches.has(row.branch)) || projects.has(row.project)) ids.push(row.id);
    }
  }
  return { ids, more: found.total > found.results.length };
}

/** A scope's IDs and its distinct branches and project paths (each with its folded form). */
interface Scope {
  ids: Set<string>;
  branches: Map<string, string>;
  projects: Map<string, string>;
}

/**
 * Made once per listing (the browser keeps one array per scope until it relists), not per
 * keystroke: at 100,000 sessions a set of every ID and a fold of each row's branch and path
 * cost more than the search they go with.
 */
const scopes = new WeakMap<readonly SessionSummary[], Scope>();

function scopeOf(rows: readonly SessionSummary[]): Scope {
  let scope = scopes.get(rows);
  if (scope) return scope;
  scope = { ids: new Set(), branches: new Map(), projects: new Map() };
  for (const row of rows) {
    scope.ids.add(row.id);
    if (row.branch !== undefined && !scope.branches.has(row.branch)) scope.branches.set(row.branch, fold(row.branch));
    if (!scope.projects.has(row.project)) scope.projects.set(row.project, fold(row.project));
  }
  scopes.set(rows, scope);
  return scope;
}
