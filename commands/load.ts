import { ChatkeepError, printable, UnknownSessionError } from '../src/session/errors.js';
import { info } from '../src/repl/command-result.js';
import { describeReplError } from '../src/repl/report-error.js';
import type { CommandContext, CommandResult, SlashCommand } from '../src/repl/types.js';

/** `/load [ID]`: saves the current session, then switches to another (a picker without an ID). */
export const load: SlashCommand = {
  name: 'load',
  aliases: ['resume'],
  summary: 'save this session and switch to another (without an ID: pick one)',
  usage: '/load [ID]',
  needsStore: true,
  complete: async (ctx, partial) => (await ctx.sessions.list({ all: true })).map((r) => r.id).filter((id) => id.startsWith(partial)),
  async run(ctx, args) {
    const current = ctx.session;
    let wanted = args.trim();
    if (wanted === '') {
      const picked = await pick(ctx);
      if (typeof picked !== 'string') return picked;
      wanted = picked;
    }
    try {
      const target = await ctx.sessions.resolve(wanted);
      if (target.id === current.id) return info(`Already in session ${current.id}.`);
      // The target first: if it is held elsewhere, the current session is left as it was.
      // The REPL then closes the current one, which saves it (one snapshot, not two).
      const next = await ctx.sessions.resume(target.id);
      return { type: 'switch', session: next, content: `Switched to ${next.id}.` };
    } catch (err) {
      if (!(err instanceof ChatkeepError)) throw err;
      // The library's advice names the shell command; inside the REPL, /sessions is nearer.
      const why = err instanceof UnknownSessionError ? `No session \`${printable(wanted)}\`. Find IDs with /sessions --all.` : describeReplError(err).replace(/^chatkeep: /, '');
      // A command the advice ends with stands alone on its line: pasted, it must not pick up more words.
      return { type: 'message', level: 'error', content: `${why}\nStill in ${current.id}.` };
    }
  },
};

/** The picker: this project's other sessions, newest first. Returns the chosen ID or what to say instead. */
async function pick(ctx: CommandContext): Promise<string | CommandResult> {
  if (!ctx.prompter.interactive) return info('Usage: /load ID (find IDs with /sessions).');
  const rows = (await ctx.sessions.list({ all: false })).filter((row) => row.id !== ctx.session.id);
  if (rows.length === 0) return info('No other sessions in this project. Try /sessions --all, then /load ID.');
  const index = await ctx.prompter.pick(ctx.formatRows(rows, ctx.session.id, { picker: true }), 'Load which session?');
  if (index < 0 || index >= rows.length) return info(`Cancelled; still in ${ctx.session.id}.`);
  return rows[index]!.id;
}
