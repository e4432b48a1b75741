import { info, refusal } from '../src/repl/command-result.js';
import type { SlashCommand } from '../src/repl/types.js';

/** Longest title kept: a title names a session in one listing row. */
export const MAX_TITLE = 200;

/** `/title TEXT`: renames the session (journaled; the next snapshot carries it). */
export const title: SlashCommand = {
  name: 'title',
  aliases: ['rename'],
  summary: 'show the title, or rename the session (no snapshot is written)',
  usage: '/title [TEXT]',
  async run(ctx, args) {
    const text = args.trim();
    if (text === '') {
      const current = ctx.session.title;
      return info(current ? `Title: "${current}". Rename with /title TEXT.` : 'No title yet. Set one with /title TEXT.');
    }
    if (text.includes('\n')) return refusal('A title is one line: /title TEXT.');
    if (text.length > MAX_TITLE) return refusal(`That title is ${text.length} characters; keep it under ${MAX_TITLE}: /title TEXT.`);
    await ctx.session.setTitle(text);
    return info(`Renamed ${ctx.persistent ? ctx.session.id : 'this chat'} to "${ctx.session.title ?? text}".`);
  },
};
