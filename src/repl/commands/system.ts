import { chatControls, info, refusal } from '../command-result.js';
import { sourceNote } from '../../terminal/describe-source.js';
import type { SlashCommand } from '../types.js';
import { ChatkeepError } from '../../session/errors.js';

/** `/system FILE`: a system prompt for the next turns (its path and hash recorded in the session). */
export const system: SlashCommand = {
  name: 'system',
  summary: 'show the system prompt, or use FILE for the next turns (off: none); path and hash recorded',
  usage: '/system [FILE|off]',
  async run(ctx, args) {
    const file = args.trim();
    if (file === '') {
      const { systemPrompt } = await ctx.session.current.status();
      if (!systemPrompt) return info('No system prompt. Use one with /system FILE.');
      return info(`System prompt: ${systemPrompt.path} (sha256 ${systemPrompt.sha256.slice(0, 12)}…)${sourceNote(systemPrompt.source)}.`);
    }
    try {
      const ref = await chatControls(ctx).useSystemPrompt(file === 'off' ? null : file);
      if (!ref) return info('No system prompt from the next turn on (recorded in the session).');
      return info(`System prompt for the next turns: ${ref.path} (sha256 ${ref.sha256.slice(0, 12)}…, recorded in the session).`);
    } catch (err) {
      if (!(err instanceof ChatkeepError)) throw err;
      // The loader's advice names --system; here the way out is another /system.
      return refusal(`${err.message.replace(/ Check --system or the config key `system`\.$/, '')} Give a readable text file: /system FILE.`);
    }
  },
};
