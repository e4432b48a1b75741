/**
 * chatkeep stores tool calls and tool results, but sends no tool definitions: to keep every
 * API happy they travel as plain text, and empty messages (an interrupted reply that never
 * started) are left out. Content in parts (images, reasoning, refusals, native blocks) goes as
 * blocks, each provider mapping them to its own (`blocks`); system-role messages join the
 * system prompt.
 */
import type { ContentPart } from '../session/api/message-parts.js';
import type { Message } from '../session/api/data.js';

/** A message's content as one text, with tool calls and tool results spelled out. */
export function messageText(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `[tool call ${c.id}: ${c.name}(${c.arguments})]`);
  const body = message.role === 'tool' ? `[tool result${message.toolCallId ? ` ${message.toolCallId}` : ''}]\n${message.content}` : message.content;
  return [body, ...calls].filter((part) => part.trim() !== '').join('\n');
}

/** One turn as a provider sends it: text alone, or blocks when the message has parts. */
export type Turn = { role: 'user' | 'assistant'; content: string } | { role: 'user' | 'assistant'; content: ContentPart[] };

/** The conversation as sent: the system text (the prompt, then system-role messages), and the turns. */
export interface Turns {
  system: string | undefined;
  turns: Turn[];
}

/**
 * The conversation as `user`/`assistant` turns (tool results speak as the user). `messages` are
 * what `messagesToSend` gives for this provider (tool calls closed, only its own reasoning and
 * native parts): text parts in their place, the tool calls' text after them. System-role
 * messages join `systemPrompt`.
 */
export function wireTurns(messages: readonly Message[], systemPrompt: string | null | undefined): Turns {
  const system: string[] = systemPrompt ? [systemPrompt] : [];
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      if (m.content.trim() !== '') system.push(m.content);
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const own = m.role === 'tool' ? [] : (m.parts ?? []);
    if (own.length === 0) {
      const text = messageText(m);
      if (text.trim() !== '') turns.push({ role, content: text });
      continue;
    }
    // Parts with text (or a refusal) are the content; parts without (reasoning alone) go before `content`.
    const withText = own.some((p) => p.type === 'text' || p.type === 'refusal');
    const rest = messageText({ ...m, content: withText ? '' : m.content });
    turns.push({ role, content: rest.trim() === '' ? own : [...own, { type: 'text', text: rest }] });
  }
  return { system: system.length === 0 ? undefined : system.join('\n\n'), turns };
}
