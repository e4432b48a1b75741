/**
 * `chatkeep sessions import FILE|- [--no-redact] [--json]`: everything is checked (size, JSON,
 * format, version, IDs, schema) before the data directory is opened, so a bad file writes
 * nothing, not even the data directory.
 */
import { checkImport, importLimit } from '../../export/import-check.js';
import { openSessions } from '../../store/open.js';
import { archivedText } from '../../session/api/archived-by.js';
import { plural } from '../../terminal/format.js';
import { commandOf } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { readImportInput } from './import-run-file.js';

/** Runs the import; resolves to the exit code. */
export async function runImport(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  if (command.options.from !== undefined) return (await import('./import-run-tools.js')).runImportFrom(command, environment);
  const { home, store, cwd, env, stdout } = environment;
  // The text is let go once parsed: a large import holds one copy of its session, not two.
  const snapshot = await readImportInput(command.file!, cwd, environment.stdin, importLimit(env)).then(({ text, source }) => checkImport(text, source));
  const sessions = await openSessions({ home, store, cwd, env, redact: command.options['no-redact'] !== true });
  const { id, importedFrom } = await sessions.importSession(snapshot);
  const archived = snapshot.archived.reduce((n, segment) => n + segment.messages.length, 0);
  if (command.options.json) {
    const row = { id, ...(importedFrom !== undefined ? { importedFrom } : {}), title: snapshot.title, project: sessions.project.path, messageCount: snapshot.messages.length, archivedMessages: archived };
    stdout.write(`${JSON.stringify(row, null, 2)}\n`);
    return 0;
  }
  const taken = importedFrom !== undefined ? ` as ${id} (${importedFrom} was taken here)` : '';
  const cleared = archived > 0 ? `, and ${archivedText(snapshot)}` : '';
  stdout.write(`Imported ${importedFrom ?? id}${taken}: ${plural(snapshot.messages.length, 'message')}${cleared}, into project ${sessions.project.path}.\n`);
  stdout.write(`Resume with: ${commandOf(environment)(['--session-id', id])}\n`);
  return 0;
}
