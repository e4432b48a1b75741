/**
 * How search results are shown, in the chat (`/sessions TEXT`) and by `chatkeep sessions search`:
 * each session's listing row, then its hit count and a snippet around the best hit.
 */
import type { SearchIndexReport, SearchResult, SearchResults } from '../session/api/search-data.js';
import type { SessionSummary } from '../session/api/listing.js';
import { visibleText } from '../text/visible-text.js';
import { plural } from './format.js';
import type { Widths } from './table.js';

export interface SearchFormat {
  /** The listing rows of these sessions (the table `/sessions` and `sessions list` show). */
  rows(rows: SessionSummary[]): string[];
  /** Marks a hit (inverse video on a terminal; nothing elsewhere). */
  highlight(text: string): string;
  /** The terminal's width: each line is cut to it (undefined when piped: lines are whole). */
  width?: number;
  /** What text is measured with (a `Formatter` is one). */
  widths: Widths;
}

/** The lines for `results` (none when nothing matched: the caller says so). */
export function formatSearchResults(results: SearchResults, format: SearchFormat): string[] {
  const rows = format.rows(results.results.map((r) => r.session));
  return results.results.flatMap((result, i) => [rows[i]!, matchLine(result, format)]);
}

/** `    3 hits · assistant: …the snippet…`, or what matched when no message did; cut to the width with `…`. */
function matchLine(result: SearchResult, format: SearchFormat): string {
  const hits = plural(result.hits, 'hit');
  const snippet = result.snippet;
  if (!snippet) return fit(format.widths, `    ${hits} · matched the ${result.matched.title ? 'title' : 'ID'}`, format.width);
  const where = snippet.archived ? `${snippet.role}, cleared by /reset` : snippet.role;
  const head = fit(format.widths, `    ${hits} · ${where}: `, format.width);
  // Cut before the highlights go in: their escapes take no columns and must not be split.
  const { displayWidth, fittingLength } = format.widths;
  const room = format.width === undefined ? Infinity : format.width - displayWidth(head);
  const whole = displayWidth(snippet.text) <= room;
  const end = whole ? snippet.text.length : fittingLength(snippet.text, Math.max(0, room - 1));
  let text = '';
  let at = 0;
  for (const [start, stop] of snippet.highlights) {
    if (start >= end) break;
    text += visibleText(snippet.text.slice(at, start)) + format.highlight(visibleText(snippet.text.slice(start, Math.min(stop, end))));
    at = Math.min(stop, end);
  }
  text += visibleText(snippet.text.slice(at, end));
  return head + (whole ? text : room >= 1 ? `${text}…` : '');
}

function fit(widths: Widths, text: string, width: number | undefined): string {
  return width === undefined ? text : widths.truncate(text, width);
}

/** `20 of 143 matching sessions shown.` when some were left out. */
export function shownLine(results: SearchResults): string | undefined {
  if (results.results.length >= results.total) return undefined;
  return `${results.results.length} of ${plural(results.total, 'matching session')} shown, best first.`;
}

/**
 * One line when the search found its index damaged (and rebuilt it); undefined otherwise. A
 * missing index (the first search, a new data directory) and one behind the sessions (new
 * messages since) are the cache doing its job: nothing is wrong, so nothing is said.
 */
export function indexNote(reports: readonly SearchIndexReport[]): string | undefined {
  const damaged = reports.filter((r) => r.state === 'damaged');
  if (damaged.length === 0) return undefined;
  const read = plural(damaged.reduce((n, r) => n + r.reindexed, 0), 'session');
  const where = damaged.length > 1 ? ` in ${damaged.length} projects` : '';
  const why = [...new Set(damaged.map((r) => `was damaged (${visibleText(r.detail ?? 'unreadable')})`))].join(', ');
  return `Search index rebuilt${where}: it ${why}${read.startsWith('0 ') ? '' : `; ${read} indexed`}.`;
}
