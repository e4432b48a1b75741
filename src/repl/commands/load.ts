import { ChatkeepError } from '../../session/api/errors.js';
import { info, refusal } from '../command-result.js';
import { errorLine } from '../host-words.js';
import type { CommandResult, SlashCommand } from '../types.js';

/** `/load [ID]`: saves the current session, then switches to another (the session browser without an ID). */
export const load: SlashCommand = {
  name: 'load',
  aliases: ['resume'],
  summary: 'save this session and switch to another',
  // Only a host with a terminal browser offers it: elsewhere /load needs an ID.
  summaryIn: (ctx) => `save this session and switch to another (${ctx.services.browse ? 'without an ID: browse and search them' : `IDs from ${ctx.ui.command('sessions')}`})`,
  args: '[ID]',
  needsStore: true,
  complete: async (ctx, partial) => (await ctx.services.sessions.list({ all: true })).map((r) => r.id).filter((id) => id.startsWith(partial)),
  async run(ctx, args) {
    const current = ctx.session.current;
    let wanted = args.trim();
    // What the browser's actions said (a fork, a move to the trash) stays on screen after it.
    let said = '';
    if (wanted === '') {
      if (!ctx.services.browse) return info(`Usage: ${ctx.ui.command('load', 'ID')} (find IDs with ${ctx.ui.command('sessions')}).`);
      const { choice, notes } = await ctx.services.browse('Load which session?');
      said = notes.map((line) => `${line}\n`).join('');
      if (choice.kind === 'cancel') return info(`${said}Cancelled; still in ${current.id}.`);
      wanted = choice.id;
    }
    try {
      const target = await ctx.services.sessions.resolve(wanted);
      if (target.id === current.id) return info(`${said}Already in session ${current.id}.`);
      // The target first: if it is held elsewhere, the current session is left as it was.
      // The REPL then closes the current one, which saves it (one snapshot, not two).
      const next = await ctx.services.sessions.resume(target.id);
      return { type: 'switch', session: next, reason: 'load', content: `${said}Switched to ${next.id}.` };
    } catch (err) {
      if (!(err instanceof ChatkeepError)) throw err;
      // Said in the host's words: an unknown ID's advice is its own /sessions --all.
      const why = errorLine(err, ctx.ui.words);
      // A command the advice ends with stands alone on its line: pasted, it must not pick up more words.
      return refusal(`${said}${why}\nStill in ${current.id}.`);
    }
  },
};
