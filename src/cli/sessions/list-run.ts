/**
 * `chatkeep sessions list`: the listing for people and scripts. Reading never takes a lock, and a
 * missing data directory is simply empty (nothing is created).
 */
import { resolve } from 'node:path';
import { openSessions } from '../../index.js';
import type { SessionSummary } from '../../session/api/listing.js';
import { listRow, problemError } from '../sessions-common.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { loadFormatter } from '../../terminal/format.js';
import { describeError } from '../../terminal/report-error.js';
import { commandOf } from '../chatkeep-host.js';
import { sessionsMayExist } from '../../store/choice.js';

export async function runList(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const now = environment.now?.() ?? new Date();
  const json = command.options.json === true;
  const format = await loadFormatter();
  const all = command.options.all === true;
  // One more row than is shown says whether any were left out; 0 (or none given): every row.
  const limit = command.limit ? command.limit : undefined;
  let rows: SessionSummary[] = [];
  let projectPath: string | undefined;
  if (sessionsMayExist(environment)) {
    const sessions = await openSessions({ home, store, cwd, env });
    rows = await sessions.list({
      all,
      ...(limit !== undefined ? { limit: limit + 1 } : {}),
      ...(command.options.branch !== undefined ? { branch: command.options.branch } : {}),
      ...(command.options.empty === true ? { empty: true } : {}),
      ...(command.options.project !== undefined ? { project: resolve(cwd, command.options.project) } : {}),
    });
    projectPath = sessions.project.path;
  }
  const more = limit !== undefined && rows.length > limit;
  if (more) rows = rows.slice(0, limit);
  if (json) stdout.write(`${JSON.stringify(rows.map(listRow), null, 2)}\n`);
  else if (rows.length === 0) stdout.write(`${emptyListing(command.options)}\n`);
  else stdout.write(`${format.formatRows(rows, { projectPath, now, width: environment.columns }).join('\n')}\n`);
  if (more && !json) stdout.write(`The newest ${rows.length} shown. --limit N shows more (0: all).\n`);
  // What `show` would say about each session that has a problem: the same words, from the same reading.
  if (!json) for (const row of rows) if (row.problem) environment.stderr.write(describeError(problemError(row.id, row.problem), commandOf(environment)).text);
  return 0;
}

/** What an empty listing says, naming the filters that emptied it. */
function emptyListing(options: SessionsCommand['options']): string {
  const where = options.all ? '' : options.project !== undefined ? ` in ${options.project}` : ' in this project';
  const branch = options.branch !== undefined ? ` on branch ${options.branch}` : '';
  const hint = options.all ? '' : ' (--all lists every project)';
  return where === '' && branch === '' ? 'No sessions yet.' : `No sessions${where}${branch} yet${hint}.`;
}
