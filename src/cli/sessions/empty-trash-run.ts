/**
 * `chatkeep sessions empty-trash`: the only deletion; it asks first (on a terminal) or needs
 * `--yes`, and deletes only what was listed when it asked.
 */
import { UserError } from '../../session/api/errors.js';
import type { TrashedSession } from '../../session/format/store.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { plural } from '../../terminal/format.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { start, type Age, type Output, type TrashEnvironment } from './trash-group-run.js';

export async function runEmptyTrash(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const started = await start(command, environment);
  return emptyTrash(started.sessions, { ...command.options, age: started.age }, started.out, started.environment);
}

/** `empty-trash [--older-than AGE] [--yes]`: the only deletion; asks on a terminal, needs `--yes` elsewhere. */
async function emptyTrash(
  sessions: SessionManager | undefined,
  options: SessionsCommand['options'] & { age: Age | undefined },
  out: Output,
  environment: TrashEnvironment,
): Promise<number> {
  const spec = options.age?.spec;
  // Only what is listed (and so confirmed) now: anything trashed after this moment is kept.
  const before = new Date(options.age === undefined ? environment.now.getTime() + 1 : environment.now.getTime() - options.age.ms);
  const doomed = (sessions ? await sessions.listTrash() : []).filter((t) => t.trashedAt.getTime() < before.getTime());
  if (doomed.length === 0) {
    out.data([], () => '');
    out.note(spec === undefined ? 'The trash is empty.' : `Nothing in the trash was put there more than ${spec} ago.`);
    return 0;
  }
  const what = `${plural(doomed.length, 'session')} in the trash (${preview(doomed)})`;
  if (!options.yes) {
    if (!environment.confirm) {
      const again = ['sessions', 'empty-trash', ...(spec !== undefined ? ['--older-than', spec] : []), '--yes'];
      throw new UserError(`This would delete ${what} for good; nothing was deleted.`, 'E_CONFIRM', 2, { to: 'To go ahead, run:', run: again });
    }
    if (!(await environment.confirm(`Delete ${what} for good? This cannot be undone.`))) {
      out.data([], () => '');
      out.note('Nothing was deleted.');
      return 0;
    }
  }
  const deleted = await sessions!.emptyTrash({ olderThan: before });
  out.data(deleted, () => deleted.join('\n'));
  if (!out.json) out.note(`Deleted ${plural(deleted.length, 'session')} for good.`);
  return 0;
}

function preview(entries: readonly TrashedSession[]): string {
  const ids = entries.slice(0, 3).map((t) => t.id).join(', ');
  return entries.length > 3 ? `${ids}, …` : ids;
}
