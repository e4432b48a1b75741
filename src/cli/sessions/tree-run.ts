/**
 * `chatkeep sessions tree ID`: the family of a session drawn with tree lines (or as JSON). Reads
 * only listing rows and the trash: no session is opened, no lock taken.
 */
import { openSessions } from '../../index.js';
import { readFamily, type FamilyMember } from '../../session/runtime/family.js';
import { noSuchSession } from '../../session/api/ids.js';
import { sessionsMayExist } from '../../store/choice.js';
import { familyLines } from '../../terminal/family-tree.js';
import { loadWidths } from '../../terminal/table.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

export async function runTree(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const id = command.id!;
  if (!sessionsMayExist(environment)) throw noSuchSession(id);
  const widths = await loadWidths();
  const root = await readFamily(await openSessions({ home, store, cwd, env }), id);
  const now = environment.now?.() ?? new Date();
  stdout.write(
    command.options.json === true
      ? `${JSON.stringify({ root: memberJson(root) }, null, 2)}\n`
      : `${familyLines(root, { now, widths, ...(environment.columns !== undefined ? { width: environment.columns } : {}) }).join('\n')}\n`,
  );
  return 0;
}

/** A member as `sessions tree --json` gives it: the root's `forkPoint` is null. */
export function memberJson(m: FamilyMember): Record<string, unknown> {
  return {
    id: m.id,
    title: m.title,
    forkPoint: m.forkPoint,
    messageCount: m.messageCount,
    updatedAt: m.updatedAt.toISOString(),
    ...(m.asked ? { asked: true } : {}),
    ...(m.trashed ? { trashed: true } : {}),
    ...(m.parentGone !== undefined ? { parentGone: m.parentGone } : {}),
    children: m.children.map(memberJson),
  };
}
