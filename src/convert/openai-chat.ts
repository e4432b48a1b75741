/**
 * OpenAI Chat Completions messages as chatkeep messages and back, one message each: `system`
 * and `developer` are system messages (the role kept natively), user content parts are text
 * and image parts (audio and files native parts), an assistant's `content: null` with
 * `tool_calls` is an empty assistant message with those tool calls, a `tool` message a result
 * answering its `tool_call_id`. Whatever else a message holds (`refusal: null`,
 * `annotations`, `audio`, a custom tool call) is kept as the message's native item, so
 * `toOpenAIChat(fromOpenAIChat(x))` deep-equals `x`.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import { InvalidMessageError } from '../session/api/errors.js';
import { imageUrl, textOf, type ContentPart, type JsonValue } from '../session/api/message-parts.js';
import { text, type Fields } from './fields.js';
import { itemOf, messageOf, objects, str, type Item, type Mapping } from './native.js';

/** A text part of a Chat Completions message. */
export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
}

/** A user message's part: text, an image, audio or a file. */
export type OpenAIChatUserPart =
  | OpenAIChatTextPart
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string } };

/** A function call an assistant message makes. */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A Chat Completions message, as `client.chat.completions.create({ messages })` takes it. */
export type OpenAIChatMessage =
  | { role: 'system'; content: string | OpenAIChatTextPart[]; name?: string }
  | { role: 'developer'; content: string | OpenAIChatTextPart[]; name?: string }
  | { role: 'user'; content: string | OpenAIChatUserPart[]; name?: string }
  | {
      role: 'assistant';
      content?: string | (OpenAIChatTextPart | { type: 'refusal'; refusal: string })[] | null;
      refusal?: string | null;
      name?: string;
      tool_calls?: OpenAIChatToolCall[];
    }
  | { role: 'tool'; content: string | OpenAIChatTextPart[]; tool_call_id: string };

/** A Chat Completions message as given: a request's message or a reply's `choices[0].message` (its keys as the SDK has them). */
export interface OpenAIChatInput {
  role: string;
  content?: unknown;
  name?: unknown;
  refusal?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
  annotations?: unknown;
  audio?: unknown;
  function_call?: unknown;
}

const FORMAT = 'openai-chat';

function partOf(p: Item): ContentPart {
  if (p.type === 'text' && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.type === 'refusal' && typeof p.refusal === 'string') return { type: 'refusal', text: p.refusal };
  const image = p.type === 'image_url' ? (p.image_url as Item | undefined) : undefined;
  if (typeof image?.url === 'string') return { type: 'image', url: image.url, ...text('detail', image.detail) };
  return { type: 'native', provider: 'openai', item: p as JsonValue };
}

/** Content given as a string, null (nothing) or parts. */
function contentOf(content: unknown): Pick<Fields, 'content' | 'parts'> {
  if (!Array.isArray(content)) return { content: str(content) };
  const parts = objects(content).map(partOf);
  return { content: textOf(parts), parts };
}

function sdkPart(p: ContentPart): Item[] {
  switch (p.type) {
    case 'text':
      return [{ type: 'text', text: p.text }];
    case 'refusal':
      return [{ type: 'refusal', refusal: p.text }];
    case 'image':
      return [{ type: 'image_url', image_url: { url: imageUrl(p), ...text('detail', p.detail) } }];
    case 'native':
      return [p.item as Item];
    // Reasoning is not part of a Chat Completions message: the API takes none back.
    case 'reasoning':
      return [];
  }
}

/** The content as parts, or as the text when there are none the API takes (reasoning alone). */
function sdkContent(m: Fields): unknown {
  const parts = m.parts?.flatMap(sdkPart);
  return parts?.length ? parts : m.content;
}

const chat: Mapping = {
  format: FORMAT,
  provider: 'openai',
  fieldsOf(item, at) {
    const name = text('name', item.name);
    switch (item.role) {
      case 'system':
      case 'developer':
        return { role: 'system', ...contentOf(item.content), ...name };
      case 'user':
        return { role: 'user', ...contentOf(item.content), ...name };
      case 'assistant': {
        const calls = objects(item.tool_calls).filter((c) => c.type === 'function');
        const toolCalls = calls.map((c) => {
          const fn = (c.function ?? {}) as Item;
          return { id: str(c.id), name: str(fn.name), arguments: str(fn.arguments) };
        });
        return { role: 'assistant', ...contentOf(item.content), ...name, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
      }
      case 'tool':
        if (typeof item.tool_call_id !== 'string') throw new InvalidMessageError(`[${at}].tool_call_id`, 'is missing: a tool message answers a call by its ID');
        return { role: 'tool', ...contentOf(item.content), toolCallId: item.tool_call_id };
      default:
        throw new InvalidMessageError(`[${at}].role`, `is ${JSON.stringify(item.role)}: a Chat Completions message is system, developer, user, assistant or tool`);
    }
  },
  itemOf(m) {
    const name = text('name', m.name);
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: sdkContent(m), ...name };
      case 'tool':
        return { role: 'tool', content: sdkContent(m), tool_call_id: m.toolCallId ?? '' };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        // The API refuses an empty assistant message; one that only calls tools has no content.
        const content = sdkContent(m);
        const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
        return { role: 'assistant', content: calls.length > 0 && content === '' ? null : content, ...name, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
      }
    }
  },
};

/**
 * Chat Completions messages (what `client.chat.completions.create({ messages })` takes, and a
 * reply's `choices[0].message`) as messages to `append()`, in order. A message of another role
 * (the deprecated `function`), or a `tool` message without its `tool_call_id`, is refused with
 * `InvalidMessageError`; what JSON cannot hold, with `UnstorableItemError`.
 */
export function fromOpenAIChat(messages: readonly OpenAIChatInput[]): NewMessage[] {
  return messages.map((item, at) => messageOf(chat, item, at));
}

/**
 * Stored messages as Chat Completions messages: each as it went in through `fromOpenAIChat`,
 * one another host wrote from its fields (reasoning left out). Give it what is to be sent,
 * `messagesToSend(session.messages, session.summary, { provider: 'openai' })`, so every tool
 * call has its result.
 */
export function toOpenAIChat(messages: readonly Message[]): OpenAIChatMessage[] {
  return messages.map((m) => itemOf(chat, m) as unknown as OpenAIChatMessage);
}
