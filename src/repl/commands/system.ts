import { chatControls, info, refusal } from '../command-result.js';
import { sourceNote } from '../../terminal/describe-source.js';
import type { SlashCommand } from '../types.js';
import { ChatkeepError } from '../../session/api/errors.js';
import { errorLine } from '../host-words.js';

/** `/system FILE`: a system prompt for the next turns (its path and hash recorded in the session). */
export const system: SlashCommand = {
  name: 'system',
  summary: 'show the system prompt, or use FILE for the next turns (off: none); path and hash recorded',
  args: '[FILE|off]',
  async run(ctx, args) {
    const file = args.trim();
    if (file === '') {
      const { systemPrompt } = await ctx.session.current.status();
      if (!systemPrompt) return info(`No system prompt. Use one with ${ctx.ui.command('system', 'FILE')}.`);
      return info(`System prompt: ${systemPrompt.path} (sha256 ${systemPrompt.sha256.slice(0, 12)}…)${sourceNote(systemPrompt.source)}.`);
    }
    try {
      const ref = await chatControls(ctx).useSystemPrompt(file === 'off' ? null : file);
      if (!ref) return info('No system prompt from the next turn on (recorded in the session).');
      return info(`System prompt for the next turns: ${ref.path} (sha256 ${ref.sha256.slice(0, 12)}…, recorded in the session).`);
    } catch (err) {
      if (!(err instanceof ChatkeepError)) throw err;
      // The loader's advice is data: here it is said as another /system.
      return refusal(errorLine(err, ctx.ui.words));
    }
  },
};
