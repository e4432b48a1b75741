/** The two results most commands return: a line to show, or a line saying what was wrong and what to do. */
import { UserError } from '../session/errors.js';
import type { ChatControls } from './chat-controls.js';
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
