/**
 * The AI SDK's `UIMessage`s as chatkeep messages, one for one: the role and id are the
 * message's own, its text parts its text (what listings, search, `show` and the exports read),
 * its reasoning parts reasoning, its tool parts (`tool-NAME`, `dynamic-tool`) tool calls with
 * their input as arguments. Everything else (part states, provider metadata, tool outputs and
 * errors, files, sources, step starts, `data-*` parts, `metadata`) is kept as the native item
 * (lossless.ts), so a message comes back field for field as it went in. A message another host
 * wrote (chatkeep's REPL continuing the chat) is rebuilt from its fields: text, reasoning, and
 * its tool calls and results as `dynamic-tool` parts.
 */
import type { UIMessage } from 'ai';
import type { Message, NewMessage, ToolCall } from '../../session/api/data.js';
import type { ContentPart } from '../../session/api/message-parts.js';
import { textOf } from '../../session/api/message-parts.js';
import { text, type Fields } from '../../convert/fields.js';
import { nativeItem, rebuild, withoutUndefined, type Item } from '../../convert/lossless.js';
import { sameMessage } from './same-message.js';
import { nativeOf, withNative } from '../../convert/native-slot.js';

export const FORMAT = 'ai-sdk';

type Part = Item & { type: string };

/** A tool part's name: `tool-NAME`'s NAME, a dynamic tool's `toolName`; undefined for any other part. */
function toolName(p: Part): string | undefined {
  if (p.type === 'dynamic-tool') return String(p.toolName);
  return p.type.startsWith('tool-') ? p.type.slice('tool-'.length) : undefined;
}

/** What chatkeep's own fields say of a UI message. */
export function fieldsOf(message: UIMessage): Fields {
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const p of message.parts as Part[]) {
    if (p.type === 'text' && typeof p.text === 'string') parts.push({ type: 'text', text: p.text });
    else if (p.type === 'reasoning' && typeof p.text === 'string') parts.push({ type: 'reasoning', text: p.text });
    const name = toolName(p);
    if (name !== undefined) toolCalls.push({ id: String(p.toolCallId), name, arguments: JSON.stringify(p.input ?? {}) });
  }
  return {
    role: message.role,
    content: textOf(parts),
    ...(parts.length > 0 ? { parts } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...text('id', message.id),
  };
}

/** The UI message a message's fields give: the base the native item is laid over. */
export function itemFromFields(m: Fields & { interrupted?: boolean }): Item {
  // An interrupted reply (a crash mid-stream) reads as the AI SDK's own unfinished text.
  const state = m.interrupted ? { state: 'streaming' } : {};
  const parts: Part[] = (m.parts ?? []).flatMap((p): Part[] => {
    if (p.type === 'text') return [{ type: 'text', text: p.text, ...state }];
    if (p.type === 'reasoning') return [{ type: 'reasoning', text: p.text }];
    return [];
  });
  if (!m.parts && m.content !== '') parts.push({ type: 'text', text: m.content, ...state });
  for (const call of m.toolCalls ?? []) {
    parts.push({ type: 'dynamic-tool', toolName: call.name, toolCallId: call.id, state: 'input-available', input: parseArgs(call.arguments) });
  }
  return { id: m.id ?? '', role: m.role === 'tool' ? 'assistant' : m.role, parts };
}

/** The message a UI message is stored as. */
export function messageOf(message: UIMessage): NewMessage {
  const fields = fieldsOf(message);
  return withNative(fields, nativeItem(FORMAT, message as unknown as Item, itemFromFields(fields)));
}

/** One message of the chat as stored: the UI message, and where its live versions are among the session's messages. */
export interface StoredVersion {
  /** Shared with the next save's reading: never changed, and copied before it leaves the adapter (`chatOf`). */
  message: Item;
  indexes: number[];
}

/**
 * The UI message a stored message was saved from, where it differs from what the message gives
 * back (a secret in it was redacted): a save of the same message again is then the same, not a
 * change to store once more. Kept for as long as this process holds the message.
 */
const savedFrom = new WeakMap<Message, Item>();

/** Records what `message` was saved from, when that is not what it gives back. */
export function rememberSaved(message: Message, given: UIMessage): void {
  if (!sameMessage(itemOf(message), given)) savedFrom.set(message, structuredClone(withoutUndefined(given, FORMAT)) as Item);
}

/** True when `given` is what `message` was saved from, as this process saved it. */
export function savedFromThis(message: Message | undefined, given: UIMessage): boolean {
  const from = message && savedFrom.get(message);
  return from !== undefined && sameMessage(from, given);
}

/**
 * Each stored message's UI message as rebuilt from it, made once: a message's fields never change
 * once stored (only its `superseded` mark, read afresh), so a save reads a long chat without
 * rebuilding every message of it.
 */
const rebuilt = new WeakMap<Message, Item>();

export function itemOf(m: Message): Item {
  let item = rebuilt.get(m);
  if (!item) rebuilt.set(m, (item = rebuild(nativeOf(m, FORMAT), itemFromFields(m))));
  return item;
}

/**
 * The chat as stored, by message id in the chat's order, from the live messages. A message
 * stored again under the same id (an update: a tool part that got its output) stands in the
 * place of its first version; a tool result another host stored becomes the output of its call's part.
 */
export function versionsOf(messages: readonly Message[], chatId: string): Map<string, StoredVersion> {
  // Every id in the order of its first version (superseded ones hold the place), live versions after.
  const chat = new Map<string, StoredVersion | undefined>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool' && !nativeOf(m, FORMAT)) {
      if (!m.superseded) answer(chat, m);
      continue;
    }
    let item = itemOf(m);
    // A message without an id (another host wrote it) gets one that stays the same on every load.
    if (item.id === '') item = { ...item, id: `${chatId}-${i}` };
    const id = String(item.id);
    const known = chat.get(id);
    if (m.superseded) {
      if (!chat.has(id)) chat.set(id, undefined);
    } else if (known) {
      known.message = item;
      known.indexes.push(i);
    } else chat.set(id, { message: item, indexes: [i] });
  }
  return new Map([...chat].flatMap(([id, v]): [string, StoredVersion][] => (v ? [[id, v]] : [])));
}

/** The chat as UI messages: copies, the caller's to change. */
export function chatOf(messages: readonly Message[], chatId: string): UIMessage[] {
  return [...versionsOf(messages, chatId).values()].map((v) => structuredClone(v.message) as unknown as UIMessage);
}

/** Completes the `dynamic-tool` part of the call a tool message answers with its output (in a copy of the message). */
function answer(chat: Map<string, StoredVersion | undefined>, result: Message): void {
  for (const version of [...chat.values()].reverse()) {
    if (!version) continue;
    const at = (version.message.parts as Part[]).findIndex((p) => p.type === 'dynamic-tool' && p.toolCallId === result.toolCallId);
    if (at < 0) continue;
    version.message = structuredClone(version.message);
    const part = (version.message.parts as Part[])[at]!;
    part.state = result.status === 'error' ? 'output-error' : 'output-available';
    if (part.state === 'output-error') part.errorText = result.content;
    else part.output = result.content;
    return;
  }
}

/** Tool-call arguments as the AI SDK holds its input (a value); text that is not JSON stays text. */
function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
