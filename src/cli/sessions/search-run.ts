/**
 * `chatkeep sessions search TEXT [--all] [--limit N] [--json]`: full-text search for scripts and
 * people. What the search did to its index is said in one line on stderr.
 */
import { Chalk } from 'chalk';
import { openSessions } from '../../index.js';
import type { SearchResults } from '../../session/api/search-data.js';
import { listRow } from '../sessions-common.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { loadFormatter } from '../../terminal/format.js';
import { formatSearchResults, indexNote, shownLine } from '../../terminal/format-search.js';
import { colorLevelFor } from '../../terminal/screen.js';
import { sessionsMayExist } from '../../store/choice.js';

type SearchCommand = SessionsCommand & { query: string; limit: number };

export async function runSearch(command: SearchCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const format = await loadFormatter();
  const all = command.options.all === true;
  let results: SearchResults = { query: command.query, total: 0, results: [], index: [] };
  let projectPath: string | undefined;
  // A missing data directory has nothing to search, and is not created.
  if (sessionsMayExist(environment)) {
    const sessions = await openSessions({ home, store, cwd, env });
    results = await sessions.search(command.query, { all, limit: command.limit });
    projectPath = sessions.project.path;
  }
  const note = indexNote(results.index);
  if (note) environment.stderr.write(`${note}\n`);
  if (command.options.json === true) {
    stdout.write(`${JSON.stringify(searchJson(results), null, 2)}\n`);
    return 0;
  }
  if (results.total === 0) {
    stdout.write(`No sessions${all ? '' : ' in this project'} match "${results.query}".${all ? '' : ' (--all searches every project)'}\n`);
    return 0;
  }
  const terminal = environment.terminal === true;
  const color = new Chalk({ level: colorLevelFor(env, terminal, terminal ? 1 : 0) });
  const now = environment.now?.() ?? new Date();
  const lines = formatSearchResults(results, {
    widths: format,
    rows: (rows) => format.formatRows(rows, { projectPath, now, width: environment.columns }),
    highlight: (text) => color.inverse(text),
    width: environment.columns,
  });
  const shown = shownLine(results);
  stdout.write(`${[...lines, ...(shown ? [`${shown} --limit N shows more (0: all).`] : [])].join('\n')}\n`);
  return 0;
}

/** `sessions search --json`: the query, how many matched, and the best sessions with their snippets. */
function searchJson(results: SearchResults): Record<string, unknown> {
  return {
    query: results.query,
    total: results.total,
    results: results.results.map((r) => ({
      ...listRow(r.session),
      hits: r.hits,
      matched: r.matched,
      snippet: r.snippet ? { ...r.snippet, timestamp: r.snippet.timestamp.toISOString() } : null,
    })),
  };
}
