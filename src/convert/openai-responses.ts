/**
 * OpenAI Responses API input items as chatkeep messages and back, one message each: a message
 * item keeps its role (`developer` as a system message, the role kept natively) and its content
 * as text, image and refusal parts; a `function_call` is an assistant message with that one tool
 * call, a `function_call_output` a tool message answering its `call_id`, a `reasoning` item an
 * assistant message of reasoning parts (its summaries, the encrypted content as the first one's
 * data); ids and statuses are the message's own. Any other item (hosted tools' calls, item
 * references) is an assistant message whose native item holds it. What the fields do not give
 * back exactly is kept natively, so `toOpenAIResponses(fromOpenAIResponses(x))` deep-equals `x`.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import { InvalidMessageError } from '../session/api/errors.js';
import { imageUrl, textOf, type ContentPart, type JsonValue } from '../session/api/message-parts.js';
import { text, type Fields } from './fields.js';
import { nativeOf } from './native-slot.js';
import { itemOf, messageOf, objects, str, type Item, type Mapping } from './native.js';

/** A content part of a message item given as input. */
export type OpenAIResponsesInputPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' };

/** A content part of an assistant's output message (`annotations` as the fields give them: none). */
export type OpenAIResponsesOutputPart = { type: 'output_text'; text: string; annotations: never[] } | { type: 'refusal'; refusal: string };

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** An input item, as `client.responses.create({ input })` takes it. */
export type OpenAIResponsesItem =
  | { type?: 'message'; role: 'user' | 'system' | 'developer' | 'assistant'; content: string | OpenAIResponsesInputPart[] }
  | { type: 'message'; id: string; role: 'assistant'; status: ItemStatus; content: OpenAIResponsesOutputPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string; status?: ItemStatus }
  | { type: 'function_call_output'; call_id: string; output: string; id?: string; status?: ItemStatus }
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string | null };

const FORMAT = 'openai-responses';

function partOf(p: Item): ContentPart {
  if ((p.type === 'input_text' || p.type === 'output_text') && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.type === 'refusal' && typeof p.refusal === 'string') return { type: 'refusal', text: p.refusal };
  if (p.type === 'input_image' && typeof p.image_url === 'string') return { type: 'image', url: p.image_url, ...text('detail', p.detail) };
  return { type: 'native', provider: 'openai', item: p as JsonValue };
}

function sdkPart(p: ContentPart, assistant: boolean): Item[] {
  switch (p.type) {
    case 'text':
      return [assistant ? { type: 'output_text', text: p.text, annotations: [] } : { type: 'input_text', text: p.text }];
    case 'refusal':
      return [assistant ? { type: 'refusal', refusal: p.text } : { type: 'input_text', text: p.text }];
    case 'image':
      return [{ type: 'input_image', image_url: imageUrl(p), detail: p.detail ?? 'auto' }];
    case 'native':
      return [p.item as Item];
    // Reasoning is an item of its own here, never a message's content.
    case 'reasoning':
      return [];
  }
}

function contentOf(content: unknown): Pick<Fields, 'content' | 'parts'> {
  if (!Array.isArray(content)) return { content: str(content) };
  const parts = objects(content).map(partOf);
  return { content: textOf(parts), parts };
}

const responses: Mapping = {
  format: FORMAT,
  provider: 'openai',
  fieldsOf(item, at) {
    const own = { ...text('id', item.id), ...text('status', item.status) };
    switch (item.type ?? 'message') {
      case 'message': {
        const role = item.role === 'developer' ? 'system' : item.role;
        if (role !== 'user' && role !== 'assistant' && role !== 'system') throw new InvalidMessageError(`[${at}].role`, `is ${JSON.stringify(item.role)}: a message item is user, assistant, system or developer`);
        return { role, ...contentOf(item.content), ...own };
      }
      case 'function_call':
        return { role: 'assistant', content: '', toolCalls: [{ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) }], ...own };
      case 'function_call_output':
        if (typeof item.call_id !== 'string') throw new InvalidMessageError(`[${at}].call_id`, 'is missing: a function call output answers a call by its ID');
        return { role: 'tool', ...contentOf(item.output), toolCallId: item.call_id, ...own };
      case 'reasoning': {
        const parts: ContentPart[] = objects(item.summary).map((s) => ({ type: 'reasoning', text: str(s.text) }));
        const data = text('data', item.encrypted_content);
        if (data.data !== undefined) parts[0] = { ...(parts[0] ?? { type: 'reasoning', text: '' }), ...data } as ContentPart;
        return { role: 'assistant', content: '', parts, ...own };
      }
      default:
        return { role: 'assistant', content: '', ...own };
    }
  },
  itemOf(m) {
    const own = { ...text('id', m.id), ...text('status', m.status) };
    const content = (assistant: boolean): unknown => {
      const parts = m.parts?.flatMap((p) => sdkPart(p, assistant));
      return parts?.length ? parts : m.content;
    };
    if (m.role === 'tool') return { type: 'function_call_output', call_id: m.toolCallId ?? '', output: content(false), ...own };
    const call = m.toolCalls?.length === 1 && m.content === '' && !m.parts ? m.toolCalls[0] : undefined;
    if (call) return { type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments, ...own };
    if (m.role === 'assistant' && m.parts?.length && m.parts.every((p) => p.type === 'reasoning')) {
      const data = m.parts.find((p) => p.type === 'reasoning' && p.data !== undefined);
      const summary = m.parts.map((p) => ({ type: 'summary_text', text: 'text' in p ? p.text : '' }));
      return { type: 'reasoning', summary, ...own, ...(data?.type === 'reasoning' ? { encrypted_content: data.data } : {}) };
    }
    // An output message is known by its ID; without one, the assistant's text is an input message.
    if (m.role === 'assistant' && m.id !== undefined) return { type: 'message', role: 'assistant', content: content(true), ...own, status: m.status ?? 'completed' };
    if (m.role === 'assistant') return { type: 'message', role: 'assistant', content: m.content };
    return { role: m.role, content: content(false), ...own };
  },
};

/**
 * The items of a message another host wrote: its text as a message item, then one function
 * call per tool call; its reasoning is left out (the API takes back only its own, by ID).
 */
function itemsFromFields(m: Message): Item[] {
  const calls = m.toolCalls ?? [];
  if (m.role !== 'assistant' || (calls.length === 1 && m.content === '' && !m.parts)) return [itemOf(responses, m)];
  const parts = m.parts?.filter((p) => p.type !== 'reasoning');
  const said = m.content !== '' || (parts?.length ?? 0) > 0 || calls.length === 0 ? [responses.itemOf({ ...m, parts, toolCalls: undefined })] : [];
  return [...said, ...calls.map((call) => responses.itemOf({ role: 'assistant', content: '', toolCalls: [call] }))];
}

/**
 * Responses API input items (what `client.responses.create({ input })` takes, and a reply's
 * `output` items) as messages to `append()`, in order. A message item of another role, or a
 * function call output without its `call_id`, is refused with `InvalidMessageError`.
 */
export function fromOpenAIResponses(items: readonly object[]): NewMessage[] {
  return items.map((item, at) => messageOf(responses, item, at));
}

/**
 * Stored messages as Responses API input items: each as it went in through
 * `fromOpenAIResponses`, one another host wrote from its fields (a message with several tool
 * calls as one function call item each). Give it `messagesToSend(session.messages,
 * session.summary, { provider: 'openai' })`, so every function call has its output.
 */
export function toOpenAIResponses(messages: readonly Message[]): OpenAIResponsesItem[] {
  return messages.flatMap((m) => (nativeOf(m, FORMAT) ? [itemOf(responses, m)] : itemsFromFields(m))) as unknown as OpenAIResponsesItem[];
}
