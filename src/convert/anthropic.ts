/**
 * Anthropic Messages' `{ system, messages }` as chatkeep messages and back. The system prompt
 * is a system message; an assistant message is one message whose `text`, `thinking` (its
 * signature kept) and `redacted_thinking` (its data) blocks are text and reasoning parts and
 * whose `tool_use` blocks are its tool calls; a user message's `tool_result` blocks are tool
 * messages of their own (as chatkeep keeps every result), the rest of it a user message after
 * them. Blocks chatkeep has no part for (documents, server tools' blocks) are native parts; what
 * the fields do not give back exactly (`citations`, `cache_control`, a block order of its own)
 * is kept as the native item, so `toAnthropic(fromAnthropic(x))` deep-equals `x`.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import { InvalidMessageError } from '../session/api/errors.js';
import { textOf, type ContentPart, type JsonValue } from '../session/api/message-parts.js';
import { text, type Fields } from './fields.js';
import type { NativeItem } from './lossless.js';
import { nativeOf } from './native-slot.js';
import { itemOf, messageOf, objects, str, type Item, type Mapping } from './native.js';

/** A text block. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

/** An image block: inline base64 or by URL. */
export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string } | { type: 'url'; url: string };
}

/** A content block of a message, as `client.messages.create({ messages })` takes it. */
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: string | (AnthropicTextBlock | AnthropicImageBlock)[]; is_error?: boolean }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** A message of a Messages API request. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** What a request's conversation is: its system prompt (absent when there is none) and its messages. */
export interface AnthropicConversation {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

const FORMAT = 'anthropic';

/** A native item that also says its message goes on in the Anthropic message before it (the rest after tool results). */
type Piece = NativeItem & { joined?: true };

function partOf(b: Item): ContentPart {
  if (b.type === 'text' && typeof b.text === 'string') return { type: 'text', text: b.text };
  if (b.type === 'thinking' && typeof b.thinking === 'string') return { type: 'reasoning', text: b.thinking, ...text('signature', b.signature) };
  if (b.type === 'redacted_thinking' && typeof b.data === 'string') return { type: 'reasoning', text: '', data: b.data };
  const source = b.type === 'image' ? (b.source as Item | undefined) : undefined;
  if (source?.type === 'url' && typeof source.url === 'string') return { type: 'image', url: source.url };
  if (source?.type === 'base64' && typeof source.data === 'string') return { type: 'image', data: source.data, mediaType: str(source.media_type) };
  return { type: 'native', provider: FORMAT, item: b as JsonValue };
}

function blockOf(p: ContentPart): Item[] {
  switch (p.type) {
    case 'text':
    case 'refusal':
      return [{ type: 'text', text: p.text }];
    case 'image':
      return [{ type: 'image', source: p.url ? { type: 'url', url: p.url } : { type: 'base64', media_type: p.mediaType, data: p.data } }];
    case 'reasoning':
      // The API takes back only the thinking it signed (or redacted): any other is left out.
      if (p.signature !== undefined) return [{ type: 'thinking', thinking: p.text, signature: p.signature }];
      return p.data !== undefined ? [{ type: 'redacted_thinking', data: p.data }] : [];
    case 'native':
      return [p.item as Item];
  }
}

function contentOf(content: unknown): Pick<Fields, 'content' | 'parts'> {
  if (!Array.isArray(content)) return { content: str(content) };
  const parts = objects(content).map(partOf);
  return { content: textOf(parts), parts };
}

function blocks(m: Fields): string | Item[] {
  return m.parts ? m.parts.flatMap(blockOf) : m.content;
}

const anthropic: Mapping = {
  format: FORMAT,
  provider: FORMAT,
  fieldsOf(item, at) {
    if ('system' in item) return { role: 'system', ...contentOf(item.system) };
    if (item.type === 'tool_result') {
      return { role: 'tool', ...contentOf(item.content), toolCallId: str(item.tool_use_id), ...(item.is_error === true ? { status: 'error' } : {}) };
    }
    if (item.role === 'user') return { role: 'user', ...contentOf(item.content) };
    if (item.role !== 'assistant') throw new InvalidMessageError(`messages[${at}].role`, `is ${JSON.stringify(item.role)}: an Anthropic message is user or assistant`);
    if (!Array.isArray(item.content)) return { role: 'assistant', content: str(item.content) };
    const uses = objects(item.content).filter((b) => b.type === 'tool_use');
    const toolCalls = uses.map((b) => ({ id: str(b.id), name: str(b.name), arguments: JSON.stringify(b.input ?? {}) }));
    const fields = contentOf(objects(item.content).filter((b) => b.type !== 'tool_use'));
    return { role: 'assistant', ...fields, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
  },
  itemOf(m) {
    switch (m.role) {
      case 'system':
        return { system: blocks(m) };
      case 'tool': {
        const content = blocks(m);
        return { type: 'tool_result', tool_use_id: m.toolCallId ?? '', ...(content === '' ? {} : { content }), ...(m.status === 'error' ? { is_error: true } : {}) };
      }
      case 'user':
        return { role: 'user', content: blocks(m) };
      case 'assistant': {
        const uses = (m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments || '{}') as unknown }));
        if (uses.length === 0) return { role: 'assistant', content: blocks(m) };
        const said = m.parts ? m.parts.flatMap(blockOf) : m.content === '' ? [] : [{ type: 'text', text: m.content }];
        return { role: 'assistant', content: [...said, ...uses] };
      }
    }
  },
};

/** A user message split: its tool results first, each a tool message, then the rest of it, joined to them. */
function userPieces(item: Item, at: number): NewMessage[] {
  const all = Array.isArray(item.content) ? (item.content as unknown[]) : [];
  const results = all.filter((b) => (b as Item | null)?.type === 'tool_result');
  if (results.length === 0) return [messageOf(anthropic, item, at)];
  const pieces = results.map((b) => messageOf(anthropic, b, at));
  const rest = all.filter((b) => !results.includes(b));
  // The rest keeps the message's other keys; an order the API would refuse (text before a result) is not kept.
  if (rest.length > 0) pieces.push(messageOf(anthropic, { ...item, content: rest }, at));
  return pieces.map((p, i) => (i > 0 ? joined(p) : p));
}

function joined(message: NewMessage): NewMessage {
  return { ...message, native: { ...((message.native as Piece | undefined) ?? { format: FORMAT }), joined: true } as unknown as JsonValue };
}

/**
 * A Messages API conversation (the `system` and `messages` a request takes, a reply's content
 * pushed as `{ role: 'assistant', content: reply.content }`) as messages to `append()`, in
 * order: the system prompt first. A role other than user or assistant is refused with
 * `InvalidMessageError`.
 */
export function fromAnthropic(conversation: { system?: unknown; messages: readonly { role: string; content: unknown }[] }): NewMessage[] {
  const system = conversation.system === undefined ? [] : [messageOf(anthropic, { system: conversation.system }, 0)];
  return [...system, ...conversation.messages.flatMap((m, at) => (m.role === 'user' ? userPieces(m as unknown as Item, at) : [messageOf(anthropic, m, at)]))];
}

/**
 * Stored messages as a Messages API conversation: system messages as the system prompt, tool
 * results gathered into the user message after their calls, each message as it went in through
 * `fromAnthropic` or, written by another host, from its fields (thinking without a signature
 * left out). Give it `messagesToSend(session.messages, session.summary, { provider: 'anthropic' })`.
 */
export function toAnthropic(messages: readonly Message[]): AnthropicConversation {
  const systems: unknown[] = [];
  const out: Item[] = [];
  for (const m of messages) {
    const item = itemOf(anthropic, m);
    const last = out.at(-1);
    const lastBlocks = last?.role === 'user' && Array.isArray(last.content) ? (last.content as Item[]) : undefined;
    if (m.role === 'system') systems.push(item.system);
    else if (m.role === 'tool' && lastBlocks?.at(-1)?.type === 'tool_result') lastBlocks.push(item);
    else if (m.role === 'tool') out.push({ role: 'user', content: [item] });
    else if (m.role === 'user' && lastBlocks && (nativeOf(m, FORMAT) as Piece | undefined)?.joined) lastBlocks.push(...(item.content as Item[]));
    else out.push(item);
  }
  const conversation = { messages: out } as unknown as AnthropicConversation;
  if (systems.length === 1) conversation.system = systems[0] as AnthropicConversation['system'];
  else if (systems.length > 1) conversation.system = systems.flatMap((s) => (typeof s === 'string' ? [{ type: 'text', text: s }] : (s as AnthropicTextBlock[])));
  return conversation;
}
