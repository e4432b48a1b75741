import { info, refusal } from '../command-result.js';
import { titleCutNote } from '../../terminal/title-cut.js';
import { visibleText } from '../../text/visible-text.js';
import type { SlashCommand } from '../types.js';

/** `/title TEXT`: renames the session (journaled; the next snapshot carries it). */
export const title: SlashCommand = {
  name: 'title',
  aliases: ['rename'],
  summary: 'show the title, or rename the session (no snapshot is written)',
  args: '[TEXT]',
  async run(ctx, args) {
    const text = args.trim();
    if (text === '') {
      const current = ctx.session.current.title;
      const retitle = ctx.ui.command('title', 'TEXT');
      return info(current ? `Title: "${visibleText(current)}". Rename with ${retitle}.` : `No title yet. Set one with ${retitle}.`);
    }
    if (text.includes('\n')) return refusal(`A title is one line: ${ctx.ui.command('title', 'TEXT')}.`);
    // A long title is cut as /save TITLE cuts it (one rule: MAX_TITLE_LENGTH), and the reply says so.
    await ctx.session.current.setTitle(text);
    const stored = ctx.session.current.title;
    return info(`Renamed ${ctx.session.persistent ? ctx.session.current.id : 'this chat'} to "${stored ?? text}"${titleCutNote(text, stored)}.`);
  },
};
