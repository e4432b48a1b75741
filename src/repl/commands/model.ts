import { chatControls, info, refusal, useAssistant } from '../command-result.js';
import type { SlashCommand } from '../types.js';

/** `/model NAME`: another model of the same assistant for the next turns (recorded in the session). */
export const model: SlashCommand = {
  name: 'model',
  summary: 'show the model, or switch to NAME for the next turns (recorded in the session)',
  args: '[NAME]',
  complete: (ctx, partial) => [chatControls(ctx).provider.model ?? ''].filter((m) => m !== '' && m.startsWith(partial)),
  async run(ctx, args) {
    const current = chatControls(ctx).provider;
    const name = args.trim();
    if (name === '') {
      if (!current.model) return info(`${current.label} has no models. Switch assistant with ${ctx.ui.command('provider', 'NAME', '[MODEL]')}.`);
      return info(`Model: ${current.model} (${current.name}). Switch with ${ctx.ui.command('model', 'NAME')}.`);
    }
    if (/\s/.test(name)) return refusal(`A model name is one word: ${ctx.ui.command('model', 'NAME')} (e.g. ${ctx.ui.command('model', 'gpt-4o-mini')}).`);
    if (current.name !== 'anthropic' && current.name !== 'openai') {
      // Anthropic's models are all named claude-…; every other name is suggested with OpenAI's API.
      const vendor = /^claude/i.test(name) ? 'anthropic' : 'openai';
      return refusal(`${current.label} has no models: switch assistant first, e.g. ${ctx.ui.command('provider', vendor, name)}.`);
    }
    if (name === current.model) return info(`Already using ${current.label}.`);
    return useAssistant(ctx, current.name, name);
  },
};
