/** The two results most commands return: a line to show, or a line saying what was wrong and what to do. */
import { UserError } from '../session/api/errors.js';
import type { ProviderName } from '../models/choose-provider.js';
import { unknownModelNote } from '../models/unknown-model.js';
import { switchFailure, type ChatControls } from './chat-controls.js';
import type { CommandContext, CommandResult } from './types.js';

/** Output of a command (stdout when piped). */
export function info(content: string): CommandResult {
  return { type: 'message', level: 'info', content };
}

/** Bad input or a refusal: one line saying what was wrong and what to do. */
export function refusal(content: string): CommandResult {
  return { type: 'message', level: 'error', content };
}

/** The host's assistant controls; a host without an assistant refuses the command in one line. */
export function chatControls(ctx: CommandContext): ChatControls {
  if (!ctx.services.chat) throw new UserError('This REPL has no assistant to switch.', 'E_NO_SWITCH');
  return ctx.services.chat;
}

/** Switches the host's assistant (`/model`, `/provider`) and says so; a switch that cannot be made (no API key, bad URL) leaves the current one, said in one line. */
export async function useAssistant(ctx: CommandContext, name: ProviderName, model: string | null): Promise<CommandResult> {
  const controls = chatControls(ctx);
  const current = controls.provider;
  try {
    const next = await controls.useProvider(name, model);
    const unknown = unknownModelNote(next.model);
    return info(`Now using ${next.label} for the next turns (recorded in the session).${unknown !== undefined ? `\n${unknown}` : ''}`);
  } catch (err) {
    const line = switchFailure(err, current, ctx.ui.words.host);
    if (line === undefined) throw err;
    return refusal(line);
  }
}
