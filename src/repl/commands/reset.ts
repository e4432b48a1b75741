import { info } from '../command-result.js';
import { plural } from '../../terminal/format.js';
import type { SlashCommand } from '../types.js';

/** `/reset`: clears the live conversation; the cleared messages are archived inside the session. */
export const reset: SlashCommand = {
  name: 'reset',
  aliases: ['clear'],
  summary: 'save, then start the conversation afresh (same ID; old messages archived in the session)',
  async run(ctx) {
    const count = await ctx.session.reset();
    if (count === 0) return info('The conversation is already empty.');
    return {
      type: 'message',
      level: 'info',
      content: `Archived ${plural(count, 'message')} inside ${ctx.session.current.id}; the conversation starts afresh.`,
    };
  },
};
