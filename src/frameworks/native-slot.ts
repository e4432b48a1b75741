/**
 * Where a chatkeep message keeps its framework's native item: the one place the adapters touch
 * the message model for it.
 */
import type { Message, NewMessage } from '../session/data.js';
import type { NativeItem } from './lossless.js';

type WithNative = { native?: NativeItem };

/** The message to append: the fields, with the native item when there is one. */
export function withNative(fields: NewMessage, native: NativeItem | undefined): NewMessage {
  return native ? ({ ...fields, native } as NewMessage & WithNative) : fields;
}

/** The native item a message keeps for `format`, if any. */
export function nativeOf(message: Message, format: string): NativeItem | undefined {
  const native = (message as Message & WithNative).native;
  return native?.format === format ? native : undefined;
}
