/**
 * LangChain.js messages as chatkeep messages, one for one, through the message's own stored
 * form (`toDict()`: `{type, data}`, which `mapStoredMessageToChatMessage` turns back into the
 * same class): a human message is a user message, an AI message an assistant message with its
 * `tool_calls` as chatkeep's tool calls and its `usage_metadata` as chatkeep's usage, a tool
 * message a tool message answering its `tool_call_id`. What those fields do not give back
 * exactly (content blocks, `additional_kwargs`, `response_metadata`, ids, names, artifacts,
 * statuses, a system or generic message's role) is kept as the native item (lossless.ts).
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { NewMessage, ToolCall, Usage } from '../../session/types.js';
import type { Item } from '../lossless.js';

export const FORMAT = 'langchain';

/** chatkeep's fields of a message (what every reader of a session understands). */
export type Fields = Pick<NewMessage, 'role' | 'content' | 'toolCalls' | 'toolCallId' | 'usage' | 'model'>;

/** A message's stored form, flattened: `{type, ...data}`. */
export function itemOf(message: BaseMessage): Item {
  const { type, data } = message.toDict();
  return { type, ...(data as unknown as Item) };
}

/** The text of LangChain content: a string, or its text blocks joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[]).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');
}

interface LcToolCall {
  id?: string;
  name: string;
  args: unknown;
}

interface LcUsage {
  input_tokens: number;
  output_tokens: number;
}

/** What chatkeep's own fields say of a message's stored form. */
export function fieldsOf(item: Item): Fields {
  const content = textOf(item.content);
  if (item.type === 'tool') return { role: 'tool', content, toolCallId: String(item.tool_call_id) };
  if (item.type !== 'ai') return { role: 'user', content };
  const fields: Fields = { role: 'assistant', content };
  const calls = Array.isArray(item.tool_calls) ? (item.tool_calls as LcToolCall[]) : [];
  if (calls.length > 0) fields.toolCalls = calls.map((c): ToolCall => ({ id: c.id ?? '', name: c.name, arguments: JSON.stringify(c.args ?? {}) }));
  const usage = item.usage_metadata as LcUsage | undefined;
  if (typeof usage?.input_tokens === 'number' && typeof usage.output_tokens === 'number') {
    fields.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  }
  const meta = item.response_metadata as Record<string, unknown> | undefined;
  const model = meta?.model_name ?? meta?.model;
  if (typeof model === 'string' && model !== '') fields.model = model;
  return fields;
}

/** The stored form a message's fields give: the base the native item is laid over. */
export function itemFromFields(m: Fields): Item {
  const common = { content: m.content, additional_kwargs: {}, response_metadata: {} };
  if (m.role === 'tool') return { type: 'tool', ...common, tool_call_id: m.toolCallId ?? '' };
  if (m.role !== 'assistant') return { type: 'human', ...common };
  const item: Item = {
    type: 'ai',
    ...common,
    tool_calls: (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: parseArgs(c.arguments) })),
    invalid_tool_calls: [],
  };
  if (m.usage) item.usage_metadata = usageMetadata(m.usage);
  return item;
}

function usageMetadata(usage: Usage): Item {
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
}

/** Tool-call arguments as LangChain holds them (an object); text that is not JSON stays text. */
function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
