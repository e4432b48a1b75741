/** `chatkeep sessions rm ID…`: sessions go to the trash (docs/design.md §7), restorable. */
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { moveToTrash, restoreHint, start, trashJson } from './trash-group-run.js';

/** `rm ID…`: every ID is resolved first (an unknown one moves nothing), then each is moved; one in use is refused (exit 3). */
export async function runRm(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { sessions, out } = await start(command, environment, true);
  const resolved = [...new Set(await Promise.all(command.ids.map(async (id) => (await sessions!.resolve(id)).id)))];
  const moved = await moveToTrash(sessions!, resolved, out);
  out.data(moved.entries.map(trashJson), () => moved.entries.map((t) => `Moved ${t.id} to the trash.`).join('\n'));
  if (!out.json && moved.entries.length > 0) out.note(restoreHint(moved.entries, out.chatkeep));
  return moved.exitCode;
}
