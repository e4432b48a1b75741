/** `chatkeep sessions trash`: what is in the trash, a row each, fitted to the terminal. */
import type { TrashedSession } from '../../session/format/store.js';
import { plural, relativeTime, shortAge } from '../../terminal/format.js';
import { fitTable, type FitStep } from '../../terminal/fit-table.js';
import { visibleText } from '../../text/visible-text.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { start, trashJson, type TrashEnvironment } from './trash-group-run.js';

/** `trash`: what is in it, most recently trashed first. */
export async function runTrash(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  const entries = started.sessions ? await started.sessions.listTrash() : [];
  started.out.data(entries.map(trashJson), () => (entries.length === 0 ? 'The trash is empty.' : trashRows(entries, started.environment).join('\n')));
  return 0;
}

/**
 * What gives up room in a trash row wider than the terminal, first to last: the title beyond 32
 * columns, the time in short form, the title to 24, the message count, the title to 12.
 */
const TRASH_ROW_PLAN: readonly FitStep[] = [{ cut: 3, to: 32 }, { shorten: 1 }, { cut: 3, to: 24 }, { drop: 2 }, { cut: 3, to: 12 }];

function trashRows(entries: readonly TrashedSession[], environment: TrashEnvironment): string[] {
  const when = (at: Date): string => (environment.terminal ? relativeTime(at, environment.now) : at.toISOString());
  const cells = entries.map((t) => [
    t.id,
    `trashed ${when(t.trashedAt)}`,
    plural(t.messageCount, 'message'),
    visibleText(`${t.title ?? '(untitled)'}  [${t.project}]`),
  ]);
  const short = entries.map((t) => `trashed ${shortAge(t.trashedAt, environment.now)}`);
  return fitTable(environment.widths, cells, [{}, { short }, { align: 'right' }, {}], TRASH_ROW_PLAN, { width: environment.columns });
}
