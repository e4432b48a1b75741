/**
 * `chatkeep sessions import --from claude|codex|gemini [PATH…] [--all] [--since AGE] [--dry-run]
 * [--json]`: finds the files, imports each (src/import/run-import.ts) and reports: one line per
 * session imported or brought up to date, one line on stderr per file that could not be, and a
 * total. Exit 1 when any file failed (the others are imported all the same).
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { discover } from '../../import/discover.js';
import { importPeers, type ImportOutcome } from '../../import/run-import.js';
import { PEER_NAMES, type PeerTool } from '../../import/types.js';
import { printable } from '../../session/api/errors.js';
import { openSessions } from '../../store/open.js';
import { sessionsMayExist } from '../../store/choice.js';
import { plural } from '../../terminal/format.js';
import { commandOf } from '../chatkeep-host.js';
import { packageVersion } from '../../version.js';
import { parseAge } from '../age.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

/** How many files make an import slow enough to show its progress. */
const PROGRESS_FROM = 50;

export async function runImportFrom(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, env, stdout, stderr } = environment;
  const tool = command.options.from as PeerTool;
  const dryRun = command.options['dry-run'] === true;
  const all = command.options.all === true;
  const paths = command.paths ?? [];
  const cwd = await realpath(environment.cwd).catch(() => resolve(environment.cwd));
  const now = environment.now?.() ?? new Date();
  const since = command.options.since !== undefined ? new Date(now.getTime() - parseAge(command.options.since, '--since')) : undefined;
  const userHome = environment.userHome ?? env.HOME ?? '';
  const found = await discover({ tool, paths, cwd, all: all || paths.length > 0, env, userHome });
  const sessions = dryRun && !sessionsMayExist(environment) ? undefined : await openSessions({ home, store, cwd, env, redact: command.options['no-redact'] !== true });
  // Progress on a terminal, on one line of stderr that is cleared at the end.
  const showProgress = environment.terminal === true && found.files.length >= PROGRESS_FROM;
  const onProgress = (done: number, count: number): void => {
    if (done % 10 === 0 || done === count) stderr.write(`\rReading ${PEER_NAMES[tool]} sessions: ${done} of ${count}`);
  };
  let outcomes: ImportOutcome[];
  try {
    outcomes = await importPeers(sessions, {
      tool, files: found.files, cwd, all: all || paths.length > 0, ...(since ? { since } : {}), dryRun, toolVersion: packageVersion(),
      ...(showProgress ? { onProgress } : {}),
    });
  } finally {
    if (showProgress) stderr.write('\r\x1b[K');
    await sessions?.close();
  }
  const missing: ImportOutcome[] = found.missing.map((path) => ({ path, tool, action: 'failed', reason: 'there is no such file or folder' }));
  const results = [...missing, ...outcomes];
  const failed = results.filter((r) => r.action === 'failed');
  if (command.options.json) {
    stdout.write(`${JSON.stringify({ tool, dryRun, results, counts: counts(results) }, null, 2)}\n`);
    return failed.length > 0 ? 1 : 0;
  }
  for (const r of results) {
    if (r.action === 'failed') stderr.write(`Could not import ${printable(r.path)}: ${r.reason}.\n`);
    else if (r.action !== 'unchanged') stdout.write(`${line(r, dryRun)}\n`);
  }
  stdout.write(`${total(results, tool, dryRun, { paths, all, store: found.store, since: command.options.since })}\n`);
  const written = results.filter((r) => r.action === 'new' || r.action === 'continued');
  if (!dryRun && written.length === 1) stdout.write(`Resume with: ${commandOf(environment)(['--session-id', written[0]!.id!])}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** What became of one conversation, in a line. */
function line(r: ImportOutcome, dryRun: boolean): string {
  const kept = r.kept ? ` (${plural(r.kept, 'source line')} kept as ${r.kept === 1 ? 'it was' : 'they were'})` : '';
  const what = `${PEER_NAMES[r.tool]} session ${r.sourceId}`;
  if (r.action === 'new') return `${dryRun ? 'Would import' : 'Imported'} ${what} as ${r.id}: ${plural(r.messages ?? 0, 'message')}${kept}, into project ${r.project}.`;
  if (r.action === 'updated') return `${dryRun ? 'Would bring' : 'Brought'} ${r.id} up to date with ${what}: ${plural(r.newMessages ?? 0, 'new message')}.`;
  if (r.action === 'continued') {
    return `${dryRun ? 'Would import' : 'Imported'} ${what} again as ${r.id}, continuing ${r.continues} (which was continued here): ${plural(r.newMessages ?? 0, 'new message')}.`;
  }
  return `Not imported again: ${what} was imported as ${r.id}, since moved to the trash or deleted.`;
}

/** The last line: how many of each, or why there was nothing. */
function total(
  results: readonly ImportOutcome[],
  tool: PeerTool,
  dryRun: boolean,
  where: { paths: readonly string[]; all: boolean; store?: string | undefined; since?: string | undefined },
): string {
  const c = counts(results);
  const name = PEER_NAMES[tool];
  if (results.length === 0) {
    const changed = where.since !== undefined ? ` changed in the last ${where.since}` : '';
    if (where.paths.length > 0) return `No ${name} sessions${changed} found in ${where.paths.map((p) => printable(p)).join(', ')}.`;
    const scope = where.all ? '' : ' for this project';
    const hint = where.all ? '' : ` (--all imports every project's)`;
    return `No ${name} sessions${changed} found${scope} in ${printable(where.store ?? '')}${hint}.`;
  }
  const changed = c.new + c.updated + c.continued;
  const unchanged = c.unchanged > 0 ? `${plural(c.unchanged, `${name} session`)} already imported and unchanged` : '';
  if (changed === 0 && c.failed === 0 && c.gone === 0) return `Nothing to import: ${unchanged}.`;
  const parts = [
    `${dryRun ? 'Would import' : 'Imported'} ${plural(c.new + c.continued, 'session')}${c.updated > 0 ? `, ${dryRun ? 'would bring' : 'brought'} ${c.updated} up to date` : ''}`,
    ...(unchanged ? [unchanged] : []),
    ...(c.failed > 0 ? [`${plural(c.failed, 'file')} could not be imported`] : []),
  ];
  return `${parts.join('; ')}${dryRun ? ' (dry run: nothing was written)' : ''}.`;
}

function counts(results: readonly ImportOutcome[]): Record<ImportOutcome['action'], number> {
  const c = { new: 0, updated: 0, continued: 0, unchanged: 0, gone: 0, failed: 0 };
  for (const r of results) c[r.action] += 1;
  return c;
}
