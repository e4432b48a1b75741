import { plural } from '../src/repl/format.js';
import type { SlashCommand } from '../src/repl/types.js';

/** `/save [title]`: a snapshot now, optionally titling the session. */
export const save: SlashCommand = {
  name: 'save',
  summary: 'write a snapshot now, optionally setting the title',
  usage: '/save [title]',
  needsStore: true,
  async run(ctx, args) {
    const title = args.trim();
    const result = await ctx.session.save(title === '' ? {} : { title });
    const titled = title === '' ? '' : ` as "${title}"`;
    return {
      type: 'message',
      level: 'info',
      content: `Saved ${result.id}${titled} (${plural(result.messageCount, 'message')}) to ${result.path}`,
    };
  },
};
