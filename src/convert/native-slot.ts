/**
 * Where a chatkeep message keeps its framework's native item: the one place the adapters touch
 * the message model for it.
 */
import type { Message, NewMessage } from '../session/api/data.js';
import type { JsonValue } from '../session/api/message-parts.js';
import type { Fields } from './fields.js';
import type { NativeItem } from './lossless.js';

/** The message to append: the fields, with the native item when there is one. */
export function withNative(fields: Fields, native: NativeItem | undefined): NewMessage {
  return native ? { ...fields, native: native as unknown as JsonValue } : fields;
}

/** The native item a message keeps for `format`, if any. */
export function nativeOf(message: Message, format: string): NativeItem | undefined {
  const native = message.native as unknown as NativeItem | undefined;
  return native?.format === format ? native : undefined;
}
