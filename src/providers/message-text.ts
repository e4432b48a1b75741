/**
 * chatkeep stores tool calls and tool results, but sends no tool definitions: to keep every
 * API happy they travel as plain text, and empty messages (an interrupted reply that never
 * started) are left out.
 */
import type { Message } from '../session/types.js';

/** A message's content as one text, with tool calls and tool results spelled out. */
export function messageText(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `[tool call ${c.id}: ${c.name}(${c.arguments})]`);
  const body = message.role === 'tool' ? `[tool result${message.toolCallId ? ` ${message.toolCallId}` : ''}]\n${message.content}` : message.content;
  return [body, ...calls].filter((part) => part.trim() !== '').join('\n');
}

/** The conversation as `user`/`assistant` turns of text (tool results speak as the user). */
export function textTurns(messages: readonly Message[]): { role: 'user' | 'assistant'; content: string }[] {
  return messages
    .map((m) => ({ role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: messageText(m) }))
    .filter((turn) => turn.content.trim() !== '');
}
