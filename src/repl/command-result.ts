/** The two results most commands return: a line to show, or a line saying what was wrong and what to do. */
import type { CommandResult } from './types.js';

/** Output of a command (stdout when piped). */
export function info(content: string): CommandResult {
  return { type: 'message', level: 'info', content };
}

/** Bad input or a refusal: one line saying what was wrong and what to do. */
export function refusal(content: string): CommandResult {
  return { type: 'message', level: 'error', content };
}
