/**
 * A value as the saver's serializer makes it (`dumpsTyped`), in a form a JSON event holds: JSON
 * text kept as text (readable in the journal, no bigger than it is), anything else as base64.
 * Given back byte for byte.
 */
import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import type { Stored } from './thread-index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function dump(serde: SerializerProtocol, value: unknown): Promise<Stored> {
  const [type, bytes] = await serde.dumpsTyped(value);
  if (type === 'json') {
    try {
      return { type, text: utf8.decode(bytes) };
    } catch {
      // Not valid UTF-8: kept as bytes, below.
    }
  }
  return { type, base64: Buffer.from(bytes).toString('base64') };
}

export function load<T>(serde: SerializerProtocol, stored: Stored): Promise<T> {
  return serde.loadsTyped(stored.type, 'text' in stored ? stored.text : new Uint8Array(Buffer.from(stored.base64, 'base64'))) as Promise<T>;
}
