/**
 * chatkeep stores tool calls and tool results, but sends no tool definitions: to keep every
 * API happy they travel as plain text, and empty messages (an interrupted reply that never
 * started) are left out.
 */
import type { Message } from '../session/data.js';

/** A message's content as one text, with tool calls and tool results spelled out. */
export function messageText(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `[tool call ${c.id}: ${c.name}(${c.arguments})]`);
  const body = message.role === 'tool' ? `[tool result${message.toolCallId ? ` ${message.toolCallId}` : ''}]\n${message.content}` : message.content;
  return [body, ...calls].filter((part) => part.trim() !== '').join('\n');
}

/** The conversation as `user`/`assistant` turns of text (tool results speak as the user). */
export function textTurns(messages: readonly Message[]): { role: 'user' | 'assistant'; content: string }[] {
  return closeToolCalls(messages)
    .map((m) => ({ role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: messageText(m) }))
    .filter((turn) => turn.content.trim() !== '');
}

/**
 * Every tool call followed by its result: a call that none answers (the tool was interrupted,
 * the conversation was imported cut short) gets one saying so, after the results that did come.
 */
export function closeToolCalls(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const answered = new Set<string | undefined>();
    while (messages[i + 1]?.role === 'tool') {
      answered.add(messages[i + 1]!.toolCallId);
      out.push(messages[++i]!);
    }
    for (const call of m.toolCalls) {
      if (!answered.has(call.id)) out.push({ role: 'tool', content: UNANSWERED, timestamp: m.timestamp, toolCallId: call.id });
    }
  }
  return out;
}

/** The result a call that was never answered is given. */
export const UNANSWERED = '(no result: this tool call was never answered)';
