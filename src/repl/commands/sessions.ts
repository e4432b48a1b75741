import { info } from '../command-result.js';
import type { SlashCommand } from '../types.js';

/** `/sessions [--all] [text]`: this project's sessions (or every project's), newest first; with text, a full-text search. */
export const sessions: SlashCommand = {
  name: 'sessions',
  aliases: ['ls'],
  summary: "list this project's sessions, newest first (--all: every project); with text, search their messages",
  args: '[--all] [text]',
  needsStore: true,
  async run(ctx, args) {
    const words = args.split(/\s+/).filter((w) => w !== '');
    const all = words.includes('--all') || words.includes('-a');
    const query = words.filter((w) => w !== '--all' && w !== '-a').join(' ');
    const where = all ? '' : ' in this project';
    const more = all ? '' : ' Try /sessions --all.';
    if (query !== '') {
      const { formatSearchResults, indexNote, shownLine } = await import('../../terminal/format-search.js');
      const results = await ctx.services.sessions.search(query, { all });
      const note = indexNote(results.index);
      const format = await ctx.ui.formatter();
      const lines = formatSearchResults(results, { widths: format, rows: (rows) => format.formatRows(rows, ctx.ui.rowOptions(ctx.session.current.id)), highlight: (text) => ctx.ui.highlight(text), width: ctx.ui.columns() });
      const body = lines.length === 0 ? [`No sessions${where} match "${results.query}".${more}`] : [...lines, shownLine(results) ?? '', `(${ctx.ui.command('load', 'ID')} to switch)`];
      return info([...(note ? [note] : []), ...body.filter((l) => l !== '')].join('\n'));
    }
    const rows = await ctx.services.sessions.list({ all });
    if (rows.length === 0) return info(`No sessions${where} yet.${more}`);
    const hint = all ? '' : `\n(${ctx.ui.command('sessions', '--all')} for every project; ${ctx.ui.command('load', 'ID')} to switch)`;
    const format = await ctx.ui.formatter();
    return info(format.formatRows(rows, ctx.ui.rowOptions(ctx.session.current.id)).join('\n') + hint);
  },
};
