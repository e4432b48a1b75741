import { info } from '../command-result.js';
import type { FamilyMember } from '../../session/runtime/family.js';
import type { SlashCommand } from '../types.js';

/**
 * `/tree [ID]`: this session's family (or that session's), from its root through every fork,
 * drawn with tree lines fitted to the screen; the session asked for is marked.
 */
export const tree: SlashCommand = {
  name: 'tree',
  summary: "this session's family: the session it was forked from, and every fork, with their fork points",
  args: '[ID]',
  needsStore: true,
  async run(ctx, args) {
    const [{ readFamily }, { familyLines }, widths] = await Promise.all([
      import('../../session/runtime/family.js'),
      import('../../terminal/family-tree.js'),
      ctx.ui.formatter(),
    ]);
    const current = ctx.session.current;
    const root = await readFamily(ctx.services.sessions, args.trim() === '' ? current.id : args.trim());
    // The live session counts what it holds now, saved or not yet.
    live(root, current.id, current.messages.length);
    const width = ctx.ui.columns();
    return info(familyLines(root, { now: ctx.services.now(), widths, ...(width !== undefined ? { width } : {}) }).join('\n'));
  },
};

function live(member: FamilyMember, id: string, messageCount: number): void {
  if (member.id === id) member.messageCount = messageCount;
  for (const child of member.children) live(child, id, messageCount);
}
