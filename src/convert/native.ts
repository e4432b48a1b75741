/**
 * What the converters share: an SDK's message is stored as chatkeep's fields plus, as the
 * message's native item, only the keys those fields do not give back exactly (the framework
 * adapters' `lossless.ts`), so `to…(from…(x))` deep-equals `x`. A message another host wrote
 * (no native item of this format, or one of another SDK) is built from its fields alone.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import { InvalidMessageError } from '../session/api/errors.js';
import { isPlainObject } from '../util/is-object.js';
import type { Fields } from './fields.js';
import { nativeItem, rebuild, type Item } from './lossless.js';
import { nativeOf, withNative } from './native-slot.js';

export type { Item };

/** How one SDK's item maps to chatkeep's fields and back. */
export interface Mapping {
  /** The native item's `format`: `openai-chat`, `openai-responses`, `anthropic`. */
  format: string;
  /** The provider an assistant message of this SDK is recorded as written by (its reasoning goes back only there). */
  provider: string;
  fieldsOf(item: Item, at: number): Fields;
  itemOf(fields: Fields): Item;
}

/** The message `item` is stored as: its fields, what they do not give back, and its writer when it is the assistant's. */
export function messageOf(mapping: Mapping, item: unknown, at: number): NewMessage {
  if (!isPlainObject(item)) throw new InvalidMessageError(`[${at}]`, `is not a ${mapping.format} message (an object)`);
  const fields = mapping.fieldsOf(item, at);
  // Always a native item, if only its format: the way back knows the message came from this SDK.
  const message = withNative(fields, nativeItem(mapping.format, item, mapping.itemOf(fields)) ?? { format: mapping.format });
  return fields.role === 'assistant' ? { ...message, provider: mapping.provider } : message;
}

/** The item a stored message gives back: its fields' item, with what this SDK's native item kept laid over it. */
export function itemOf(mapping: Mapping, message: Message): Item {
  return rebuild(nativeOf(message, mapping.format), mapping.itemOf(message));
}

/** The text of a value that should be a string (`''` when it is not one). */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A value's elements when it is an array of objects, else none. */
export function objects(value: unknown): Item[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}
