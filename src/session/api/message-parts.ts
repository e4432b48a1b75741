/**
 * What an agent's message holds beyond plain text (docs/design.md §15): content in parts, and the
 * JSON a host keeps with a message. Plain data and what every reader derives from it the same
 * way (`textOf`, `imageUrl`): imports nothing.
 */

/** A JSON value: what metadata and provider-native items hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One part of a message's content. */
export type ContentPart = TextPart | ImagePart | ReasoningPart | RefusalPart | NativePart;

export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, by reference (`url`: https or a `data:` URL) or inline (`data`, base64, with its `mediaType`). */
export interface ImagePart {
  type: 'image';
  url?: string;
  data?: string;
  /** `image/png`, `image/jpeg`…: required with `data`. */
  mediaType?: string;
  /** OpenAI's `detail` (`auto`, `low`, `high`). */
  detail?: string;
}

/**
 * A model's reasoning (Anthropic's thinking block, an OpenAI reasoning item's summary): sent
 * back only to the provider that wrote it (`provider`, else the message's), with its
 * `signature` (Anthropic) or its opaque `data` (Anthropic's redacted thinking, OpenAI's
 * encrypted content) exactly as received.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  data?: string;
  provider?: string;
}

/** The model declined (OpenAI's `refusal`). */
export interface RefusalPart {
  type: 'refusal';
  text: string;
}

/** A provider's own content block chatkeep has no field for, kept exactly as it was. Sent back only to that provider. */
export interface NativePart {
  type: 'native';
  provider?: string;
  item: JsonValue;
}

/** The part types, as the schema and the codec list them. */
export const PART_TYPES = ['text', 'image', 'reasoning', 'refusal', 'native'] as const;

/**
 * A piece of a tool call being streamed: the call at `index` of the reply, with its id and name
 * when they arrive, and the next piece of its arguments' text.
 */
export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

/** The text of parts as chatkeep shows it: text and refusal parts, joined by newlines. */
export function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((p) => (p.type === 'text' || p.type === 'refusal' ? [p.text] : [])).join('\n');
}

/** An image as one URL: its own, or its inline data as a `data:` URL. */
export function imageUrl(p: ImagePart): string {
  return p.url ?? `data:${p.mediaType};base64,${p.data}`;
}
