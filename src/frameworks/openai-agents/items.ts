/**
 * The OpenAI Agents SDK's `AgentInputItem`s as chatkeep messages, one message per item: a
 * system, user or assistant message keeps its role and its content as parts (text, images,
 * refusals; what chatkeep has no part for as a native part); a function call is an assistant
 * message with that one tool call; a function call's result is a tool message answering its
 * call ID, named, with the output's text; a reasoning item an assistant message of reasoning
 * parts; ids and statuses are the message's own. Every other item (hosted tool calls, computer,
 * shell and patch calls and their outputs, compaction markers, items of newer SDKs) is a message
 * of the role that fits whose native item holds it. What the fields do not give back exactly is
 * kept as the native item (lossless.ts), so an item comes back as it went in.
 */
import type { AgentInputItem } from '@openai/agents';
import type { Message } from '../../session/api/data.js';
import { text, type Fields } from '../../convert/fields.js';
import { imageUrl, textOf, type ContentPart } from '../../session/api/message-parts.js';
import type { Item } from '../../convert/lossless.js';
import type { JsonValue } from '../../session/api/message-parts.js';

export const FORMAT = 'openai-agents';

/** Items that answer a call: stored as tool messages. */
const RESULTS = new Set(['function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output', 'tool_search_output']);

/**
 * A part as chatkeep's: text, refusals and images by URL as its own parts (whatever else such a
 * part holds, provider data or a cache breakpoint, makes the content differ from what the parts
 * give back, so the native item keeps the content as it was); any other part as a native part.
 */
function partOf(p: Item): ContentPart {
  if ((p.type === 'input_text' || p.type === 'output_text') && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.type === 'refusal' && typeof p.refusal === 'string') return { type: 'refusal', text: p.refusal };
  if (p.type === 'input_image' && typeof p.image === 'string') return { type: 'image', url: p.image, ...text('detail', p.detail) };
  return { type: 'native', item: p as JsonValue };
}

/** A part as the SDK writes it in a user (`input_*`) or assistant (`output_text`) message. */
function sdkPart(p: ContentPart, role: 'user' | 'assistant'): Item {
  switch (p.type) {
    case 'native':
      return p.item as Item;
    case 'image':
      return { type: 'input_image', image: imageUrl(p), ...text('detail', p.detail) };
    case 'refusal':
      if (role === 'assistant') return { type: 'refusal', refusal: p.text };
      break;
  }
  return { type: role === 'user' ? 'input_text' : 'output_text', text: 'text' in p ? p.text : '' };
}

/** A function call output's text: the string, or the text of its text parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return [output].flat().flatMap((p) => (typeof (p as Item | null)?.text === 'string' ? [(p as Item).text as string] : [])).join('\n');
}

/** What chatkeep's own fields say of an item. */
export function fieldsOf(item: AgentInputItem): Fields {
  const it = item as Item;
  const own = { ...text('id', it.id), ...text('status', it.status) };
  if (it.type === 'function_call') {
    return { role: 'assistant', content: '', toolCalls: [{ id: String(it.callId), name: String(it.name), arguments: String(it.arguments) }], ...own };
  }
  if (it.type === 'function_call_result') {
    return { role: 'tool', content: outputText(it.output), toolCallId: String(it.callId), ...text('name', it.name), ...own };
  }
  if (it.type === 'reasoning' && Array.isArray(it.content)) {
    return { role: 'assistant', content: '', parts: (it.content as Item[]).map((c) => ({ type: 'reasoning', text: String(c.text ?? '') })), ...own };
  }
  if (typeof it.type === 'string' && RESULTS.has(it.type)) return { role: 'tool', content: '', ...text('toolCallId', it.callId), ...own };
  if ((it.type === undefined || it.type === 'message') && (it.role === 'user' || it.role === 'assistant' || it.role === 'system')) {
    if (typeof it.content === 'string') return { role: it.role, content: it.content, ...own };
    const parts = Array.isArray(it.content) ? (it.content as Item[]).map(partOf) : [];
    return { role: it.role, content: textOf(parts), parts, ...own };
  }
  return { role: 'assistant', content: '', ...own };
}

/** The one item a message's fields give: the base the native item is laid over. */
export function itemFromFields(m: Fields): Item {
  const own = { ...text('id', m.id), ...text('status', m.status) };
  if (m.role === 'tool') {
    return { type: 'function_call_result', callId: m.toolCallId ?? '', name: m.name ?? '', status: 'completed', output: m.content, ...own };
  }
  const call = m.toolCalls?.length === 1 && m.content === '' && !m.parts ? m.toolCalls[0] : undefined;
  if (call) return { type: 'function_call', callId: call.id, name: call.name, arguments: call.arguments, ...own };
  if (m.parts?.length && m.parts.every((p) => p.type === 'reasoning')) {
    return { type: 'reasoning', content: m.parts.map((p) => ({ type: 'input_text', text: 'text' in p ? p.text : '' })), ...own };
  }
  if (m.role === 'system') return { type: 'message', role: 'system', content: m.content, ...own };
  // Reasoning is an item of its own in the SDK: in a message with other parts (another host
  // wrote it), it is not the message's content.
  const parts = m.parts?.filter((p) => p.type !== 'reasoning');
  if (m.role === 'user') return { type: 'message', role: 'user', content: parts ? parts.map((p) => sdkPart(p, 'user')) : m.content, ...own };
  const content = parts ? parts.map((p) => sdkPart(p, 'assistant')) : [{ type: 'output_text', text: m.content }];
  return { type: 'message', role: 'assistant', status: 'completed', content, ...own };
}

/**
 * The items of a message another host wrote (no native item): its text, then one function call
 * per tool call; a tool message answers the call of its ID, named as that call was.
 */
export function itemsFromMessage(m: Message, callNames: ReadonlyMap<string, string>): Item[] {
  if (m.role === 'tool') return [{ ...itemFromFields(m), name: m.name ?? callNames.get(m.toolCallId ?? '') ?? '' }];
  const calls = m.toolCalls ?? [];
  // One call and nothing else: the function call item itself (its id and status with it).
  if (calls.length === 1 && m.content === '' && !m.parts) return [itemFromFields(m)];
  const items: Item[] = m.content !== '' || calls.length === 0 ? [itemFromFields({ ...m, toolCalls: undefined })] : [];
  for (const call of calls) items.push(itemFromFields({ role: 'assistant', content: '', toolCalls: [call] }));
  return items;
}
