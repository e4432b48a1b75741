import { PROVIDER_NAMES, type ProviderName } from '../../models/choose-provider.js';
import { chatControls, info, refusal, useAssistant } from '../command-result.js';
import type { SlashCommand } from '../types.js';
import { printable } from '../../session/api/errors.js';

/** `/provider NAME [MODEL]`: another assistant for the next turns (recorded in the session). */
export const provider: SlashCommand = {
  name: 'provider',
  summary: `show the assistant, or switch to NAME (${PROVIDER_NAMES.join(', ')}) for the next turns`,
  args: '[NAME [MODEL]]',
  complete: (_ctx, partial) => PROVIDER_NAMES.filter((n) => n.startsWith(partial.toLowerCase())),
  async run(ctx, args) {
    const current = chatControls(ctx).provider;
    const [rawName, model, ...rest] = args.split(/\s+/).filter((w) => w !== '');
    if (rawName === undefined) return info(`Assistant: ${current.label}. Switch with ${ctx.ui.command('provider', 'NAME', '[MODEL]')} (${PROVIDER_NAMES.join(', ')}).`);
    const name = PROVIDER_NAMES.find((n) => n === rawName.toLowerCase());
    if (!name) return refusal(`Unknown provider \`${printable(rawName)}\`: use one of ${PROVIDER_NAMES.join(', ')} (e.g. ${ctx.ui.command('provider', 'openai')}).`);
    if (rest.length > 0) return refusal(`Too many words: ${ctx.ui.command('provider', 'NAME', '[MODEL]')} (e.g. ${ctx.ui.command('provider', 'openai', 'gpt-4o-mini')}).`);
    if (name === 'echo' && model !== undefined) return refusal(`echo has no models: ${ctx.ui.command('provider', 'echo')}.`);
    if (name === current.name && (model === undefined || model === current.model)) return info(`Already using ${current.label}.`);
    return useAssistant(ctx, name satisfies ProviderName, model ?? null);
  },
};
