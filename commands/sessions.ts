import type { SlashCommand } from '../src/repl/types.js';

/** `/sessions [--all] [text]`: this project's sessions (or every project's), newest first. */
export const sessions: SlashCommand = {
  name: 'sessions',
  aliases: ['ls'],
  summary: "list this project's sessions, newest first (--all: every project; text filters)",
  usage: '/sessions [--all] [text]',
  needsStore: true,
  async run(ctx, args) {
    const words = args.split(/\s+/).filter((w) => w !== '');
    const all = words.includes('--all') || words.includes('-a');
    const query = words.filter((w) => w !== '--all' && w !== '-a').join(' ');
    const rows = await ctx.sessions.list(query === '' ? { all } : { all, query });
    if (rows.length === 0) {
      const where = all ? '' : ' in this project';
      const content = query === '' ? `No sessions${where} yet.` : `No sessions${where} match "${query}".`;
      return { type: 'message', level: 'info', content: all ? content : `${content} Try /sessions --all.` };
    }
    const hint = all ? '' : '\n(/sessions --all for every project; /load ID to switch)';
    return { type: 'message', level: 'info', content: ctx.formatRows(rows, ctx.session.id).join('\n') + hint };
  },
};
