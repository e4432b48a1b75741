import { parseForkArgs } from '../fork-args.js';
import type { SlashCommand } from '../types.js';

/**
 * `/fork [--at N] [title]`: continues in a new session holding this conversation (its first N
 * messages with `--at`), recording where it came from. This session is saved, closed and
 * released as with /load; the fork never writes into it.
 */
export const fork: SlashCommand = {
  name: 'fork',
  summary: 'continue in a new session holding a copy of this conversation (--at N: its first N messages)',
  args: '[--at N] [title]',
  needsStore: true,
  async run(ctx, args) {
    // A bad --at is a UserError: one line, and the chat goes on in this session.
    const options = parseForkArgs(args);
    const from = ctx.session.current;
    const next = await ctx.services.sessions.fork(from, options);
    return { type: 'switch', session: next, reason: 'fork', content: `Forked ${from.id}: now in ${next.id}.` };
  },
};
