/**
 * `chatkeep sessions export ID [--format json|md|html] [-o FILE]`: one session, read without its
 * lock (a session open in a chat exports as far as its journal goes), to standard output or a file.
 */
import { EXPORT_FORMATS, exportFormat, formatOfFile, writeExport, type ExportFormat } from '../../export/formats.js';
import { openSessions } from '../../store/open.js';
import { printable, UserError } from '../../session/api/errors.js';
import { noSuchSession } from '../../session/api/ids.js';
import { packageVersion } from '../../version.js';
import { plural } from '../../terminal/format.js';
import { problemError, usable } from '../sessions-common.js';
import { describeError } from '../../terminal/report-error.js';
import { commandOf } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { writeOutputFile, writeToStream } from '../../terminal/output-file.js';
import { sessionsMayExist } from '../../store/choice.js';

/** Runs the export; resolves to the exit code. */
export async function runExport(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env } = environment;
  const id = command.id!;
  const output = command.options.output;
  const format = chooseFormat(command.options.format, output);
  if (!sessionsMayExist(environment)) throw noSuchSession(id);
  const reading = await (await openSessions({ home, store, cwd, env })).inspect(id);
  const problem = reading.problem && problemError(reading.id, reading.problem);
  if (!reading.snapshot) throw problem;
  const snapshot = reading.snapshot;
  // Written as it is made: an export of any size never holds its whole text.
  const produce = async (write: (text: string) => Promise<void>): Promise<void> => {
    if (format === 'claude') await write((await import('../../export/claude.js')).exportClaude(snapshot));
    else await writeExport(format, snapshot, packageVersion(), write);
  };
  if (output === undefined || output === '-') {
    await writeToStream(environment.stdout, produce);
  } else {
    const path = await writeOutputFile(cwd, output, produce, { anywhere: true });
    environment.stderr.write(`Exported ${reading.id} (${plural(snapshot.messages.length, 'message')}) as ${format} to ${path}\n`);
  }
  // A damaged session exports what is readable, then says what is wrong (exit 2), as `show` does.
  if (problem && !usable(reading.problem)) throw problem;
  if (problem) environment.stderr.write(describeError(problem, commandOf(environment)).text);
  return 0;
}

/** `--format`, else what the output file's name ends in, else json; `claude`: a Claude Code session file. */
export function chooseFormat(flag: string | undefined, file: string | undefined): ExportFormat | 'claude' {
  if (flag === undefined) return (file !== undefined && formatOfFile(file)) || 'json';
  if (flag.toLowerCase() === 'claude') return 'claude';
  const format = exportFormat(flag);
  if (!format) throw new UserError(`Unknown export format \`${printable(flag)}\`: use --format ${EXPORT_FORMATS.join(', ')} or claude.`, 'E_USAGE');
  return format;
}
