import { info } from '../command-result.js';
import { plural, TITLE_COLUMNS } from '../../terminal/format.js';
import { titleCutNote } from '../../terminal/title-cut.js';
import type { SlashCommand } from '../types.js';

/** `/save [title]`: a snapshot now, optionally titling the session. */
export const save: SlashCommand = {
  name: 'save',
  summary: 'write a snapshot now, optionally setting the title',
  args: '[title]',
  needsStore: true,
  async run(ctx, args) {
    const title = args.trim();
    const result = await ctx.session.save(title === '' ? {} : { title });
    // What is shown back is what was stored (redacted, capped), not what was typed.
    const stored = ctx.session.current.title;
    const { truncate } = await ctx.ui.formatter();
    const titled = title === '' || stored === null ? '' : ` as "${truncate(stored, TITLE_COLUMNS)}"${titleCutNote(title, stored)}`;
    if (result.empty) {
      const named = titled === '' ? '' : `Titled${titled}; `;
      return info(`${named}${named ? 'nothing' : 'Nothing'} is saved yet: a session is kept once it holds a message.`);
    }
    return info(`Saved ${result.id}${titled} (${plural(result.messageCount, 'message')}) to ${result.location}`);
  },
};
