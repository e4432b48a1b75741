import { info, refusal } from '../command-result.js';
import { plural } from '../../terminal/format.js';
import type { SlashCommand } from '../types.js';

/** `/retry`: asks the last message again; the earlier answer stays in the session, marked superseded. */
export const retry: SlashCommand = {
  name: 'retry',
  summary: 'ask your last message again (the earlier answer is kept, marked superseded)',
  async run(ctx, args) {
    if (args.trim() !== '') return refusal(`${ctx.ui.command('retry')} takes no arguments: it asks your last message again. To ask something else, type it.`);
    const asked = await ctx.session.current.supersedeAnswers();
    if (!asked) return info('Nothing to retry yet: send a message first.');
    const first = asked.question.content.split('\n')[0]!;
    const shown = first.length > 60 ? `${first.slice(0, 59)}…` : first;
    const kept =
      asked.superseded === 0 ? '' : asked.superseded === 1 ? ' (the earlier answer is kept, marked superseded)' : ` (the ${plural(asked.superseded, 'earlier answer')} are kept, marked superseded)`;
    return { type: 'retry', content: `Asking again: ${shown}${kept}` };
  },
};
