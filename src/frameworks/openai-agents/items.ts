/**
 * The OpenAI Agents SDK's `AgentInputItem`s as chatkeep messages, one message per item: a user,
 * system or assistant message keeps its text as the message's content; a function call is an
 * assistant message with that one tool call; a function call's result is a tool message
 * answering its call ID with the output's text; every other item (reasoning, hosted tool calls,
 * computer, shell and patch calls and their outputs, compaction markers, items of newer SDKs)
 * is a message of the role that fits, whose native item holds it whole. What the fields do not
 * give back exactly is kept as the native item (lossless.ts), so an item comes back as it went in.
 */
import type { AgentInputItem } from '@openai/agents';
import type { Message, NewMessage, Role } from '../../session/types.js';
import type { Item } from '../lossless.js';

export const FORMAT = 'openai-agents';

/** chatkeep's fields of a message (what every reader of a session understands). */
export type Fields = Pick<NewMessage, 'role' | 'content' | 'toolCalls' | 'toolCallId'>;

/** Items that answer a call: stored as tool messages. */
const RESULTS = new Set(['function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output', 'tool_search_output']);

/** The text of message content: a string, or its text and refusal parts joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content as Item[]) {
    if (typeof part.text === 'string') texts.push(part.text);
    else if (typeof part.refusal === 'string') texts.push(part.refusal);
  }
  return texts.join('\n');
}

/** What chatkeep's own fields say of an item. */
export function fieldsOf(item: AgentInputItem): Fields {
  const it = item as Item;
  if (it.type === 'function_call') {
    return { role: 'assistant', content: '', toolCalls: [{ id: String(it.callId), name: String(it.name), arguments: String(it.arguments) }] };
  }
  if (it.type === 'function_call_result') {
    return { role: 'tool', content: typeof it.output === 'string' ? it.output : textOf([it.output].flat()), toolCallId: String(it.callId) };
  }
  if (typeof it.type === 'string' && RESULTS.has(it.type)) {
    return { role: 'tool', content: '', ...(typeof it.callId === 'string' ? { toolCallId: it.callId } : {}) };
  }
  if ((it.type === undefined || it.type === 'message') && (it.role === 'user' || it.role === 'assistant' || it.role === 'system')) {
    return { role: messageRole(it.role), content: textOf(it.content) };
  }
  return { role: 'assistant', content: '' };
}

/**
 * chatkeep has no system role yet: a system item is a user message whose native item says
 * `system` (kept whole, as the fields give `user`).
 */
function messageRole(role: 'user' | 'assistant' | 'system'): Role {
  return role === 'system' ? 'user' : role;
}

/** The one item a message's fields give: the base the native item is laid over. */
export function itemFromFields(m: Fields): Item {
  if (m.role === 'tool') {
    return { type: 'function_call_result', callId: m.toolCallId ?? '', name: '', status: 'completed', output: m.content };
  }
  const call = m.toolCalls?.length === 1 && m.content === '' ? m.toolCalls[0] : undefined;
  if (call) return { type: 'function_call', callId: call.id, name: call.name, arguments: call.arguments, status: 'completed' };
  if (m.role === 'user') return { type: 'message', role: 'user', content: m.content };
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] };
}

/**
 * The items of a message another host wrote (no native item): its text, then one function call
 * per tool call; a tool message answers the call of its ID, named as that call was.
 */
export function itemsFromMessage(m: Message, callNames: ReadonlyMap<string, string>): Item[] {
  if (m.role === 'tool') return [{ ...itemFromFields(m), name: callNames.get(m.toolCallId ?? '') ?? '' }];
  const calls = m.toolCalls ?? [];
  const items: Item[] = m.content !== '' || calls.length === 0 ? [itemFromFields({ role: m.role, content: m.content })] : [];
  for (const call of calls) items.push(itemFromFields({ role: 'assistant', content: '', toolCalls: [call] }));
  return items;
}
