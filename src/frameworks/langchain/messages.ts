/**
 * LangChain.js messages as chatkeep messages, one for one, through the message's own stored
 * form (`toDict()`: `{type, data}`, which `mapStoredMessageToChatMessage` turns back into the
 * same class): a system, human, AI or tool message keeps its role, its content blocks as parts
 * (text, images, reasoning and thinking with its signature; any other block as a native part),
 * its id and name; an AI message its `tool_calls` as chatkeep's tool calls and its
 * `usage_metadata` as chatkeep's usage; a tool message answers its `tool_call_id` with its
 * status. What those fields do not give back exactly (`additional_kwargs`, `response_metadata`,
 * artifacts, invalid tool calls, a generic message's role) is kept as the native item (lossless.ts).
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { ToolCall } from '../../session/api/data.js';
import { text, type Fields } from '../../convert/fields.js';
import { imageUrl, textOf, type ContentPart } from '../../session/api/message-parts.js';
import type { Item } from '../../convert/lossless.js';
import type { JsonValue } from '../../session/api/message-parts.js';

export const FORMAT = 'langchain';

/** A message's stored form, flattened: `{type, ...data}`. */
export function itemOf(message: BaseMessage): Item {
  const { type, data } = message.toDict();
  return { type, ...(data as unknown as Item) };
}

const ROLES: Record<string, Fields['role']> = { system: 'system', human: 'user', ai: 'assistant', tool: 'tool', function: 'tool' };
const TYPES: Record<Fields['role'], string> = { system: 'system', user: 'human', assistant: 'ai', tool: 'tool' };

/**
 * A block as chatkeep's part: text, images by URL, reasoning and thinking (with its signature)
 * as its own parts (whatever else such a block holds, annotations or ids, makes the content
 * differ from what the parts give back, so the native item keeps the content as it was); any
 * other block as a native part.
 */
function partOf(b: Item): ContentPart {
  const image = b.image_url as Item | string | undefined;
  const url = typeof image === 'string' ? image : image?.url;
  if (b.type === 'text' && typeof b.text === 'string') return { type: 'text', text: b.text };
  if (b.type === 'image_url' && typeof url === 'string') return { type: 'image', url, ...text('detail', typeof image === 'object' ? image.detail : undefined) };
  if (b.type === 'reasoning' && typeof b.reasoning === 'string') return { type: 'reasoning', text: b.reasoning, provider: 'openai' };
  if (b.type === 'thinking' && typeof b.thinking === 'string') return { type: 'reasoning', text: b.thinking, ...text('signature', b.signature), provider: 'anthropic' };
  return { type: 'native', item: b as JsonValue };
}

/** A part as a LangChain content block. */
function blockOf(p: ContentPart): Item {
  switch (p.type) {
    case 'native':
      return p.item as Item;
    case 'image':
      return { type: 'image_url', image_url: { url: imageUrl(p), ...text('detail', p.detail) } };
    case 'reasoning':
      return p.provider === 'anthropic' || p.signature ? { type: 'thinking', thinking: p.text, ...text('signature', p.signature) } : { type: 'reasoning', reasoning: p.text };
    default:
      return { type: 'text', text: p.text };
  }
}

interface LcToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** What chatkeep's own fields say of a message's stored form. */
export function fieldsOf(item: Item): Fields {
  const role = ROLES[String(item.type)] ?? 'user';
  const parts = Array.isArray(item.content) ? (item.content as Item[]).map(partOf) : undefined;
  const fields: Fields = {
    role,
    content: parts ? textOf(parts) : String(item.content ?? ''),
    ...(parts ? { parts } : {}),
    ...text('id', item.id),
    ...text('name', item.name),
    ...text('status', item.status),
    // A legacy FunctionMessage answers a call by its function's name, not an ID: chatkeep's tool
    // message needs one, so it answers `function:NAME` (the native item keeps the message as it was).
    ...text('toolCallId', item.type === 'function' && item.tool_call_id === undefined ? `function:${String(item.name ?? '')}` : item.tool_call_id),
  };
  if (item.type !== 'ai') return fields;
  const calls = Array.isArray(item.tool_calls) ? (item.tool_calls as LcToolCall[]) : [];
  if (calls.length > 0) fields.toolCalls = calls.map((c): ToolCall => ({ id: c.id ?? '', name: c.name, arguments: JSON.stringify(c.args ?? {}) }));
  const { input_tokens: input, output_tokens: output, total_tokens: _total, ...details } = (item.usage_metadata ?? {}) as Item;
  if (typeof input === 'number' && typeof output === 'number') {
    fields.usage = { inputTokens: input, outputTokens: output, ...(Object.keys(details).length > 0 ? { details: details as { [key: string]: JsonValue } } : {}) };
  }
  const meta = item.response_metadata as Item | undefined;
  const model = meta?.model_name ?? meta?.model;
  if (typeof model === 'string' && model !== '') fields.model = model;
  if (typeof meta?.model_provider === 'string' && meta.model_provider !== '') fields.provider = meta.model_provider;
  return fields;
}

/** The stored form a message's fields give: the base the native item is laid over. */
export function itemFromFields(m: Fields): Item {
  const item: Item = {
    type: TYPES[m.role],
    content: m.parts ? m.parts.map(blockOf) : m.content,
    additional_kwargs: {},
    response_metadata: {},
    ...text('id', m.id),
    ...text('name', m.name),
  };
  if (m.role === 'tool') return { ...item, tool_call_id: m.toolCallId ?? '', ...text('status', m.status) };
  if (m.role !== 'assistant') return item;
  item.tool_calls = (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: parseArgs(c.arguments), type: 'tool_call' }));
  item.invalid_tool_calls = [];
  if (m.usage) {
    const { inputTokens, outputTokens } = m.usage;
    item.usage_metadata = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens, ...m.usage.details };
  }
  return item;
}

/** Tool-call arguments as LangChain holds them (an object); text that is not JSON stays text. */
function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
