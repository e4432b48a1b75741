import { info } from '../command-result.js';
import { NothingToUncompactError } from '../../session/api/errors.js';
import { keptLive, lastCompaction } from '../../session/model/uncompact.js';
import { plural } from '../../text/plural.js';
import type { SlashCommand } from '../types.js';

/**
 * `/uncompact`: undoes the last `/compact`. With nothing said since, in this session: the
 * messages it summarised are live again, its summary kept in the archive. Otherwise in a fork
 * holding the conversation as it was before it (the later replies were written against the
 * summary), this session kept as it was, saved and released, the new ID said.
 */
export const uncompact: SlashCommand = {
  name: 'uncompact',
  summary: 'undo the last /compact: its messages live again, its summary kept in the archive (in a fork when you wrote since)',
  needsStore: true,
  async run(ctx) {
    const from = ctx.session.current;
    const index = lastCompaction(from);
    if (index === undefined) throw new NothingToUncompactError();
    const restored = from.archived[index]!.messages.length;
    if (keptLive(from, index) === from.messages.length) {
      await from.uncompact();
      return info(`Uncompacted: the ${plural(restored, 'message')} /compact summarised ${restored === 1 ? 'is' : 'are'} live again; its summary is kept in the archive.`);
    }
    const next = await ctx.services.sessions.fork(from, { uncompact: true });
    return {
      type: 'switch',
      session: next,
      reason: 'fork',
      content: `Uncompacted in a fork, as messages came after the last /compact: now in ${next.id}, holding the ${plural(next.messages.length, 'message')} as they were before it; ${from.id} is kept as it was.`,
    };
  },
};
