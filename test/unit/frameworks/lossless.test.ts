import { describe, expect, it } from 'vitest';
import { nativeItem, rebuild, UnstorableItemError, type Item } from '../../../src/convert/lossless.js';

/** What a store gives back: the JSON of what was written. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('the native item: what chatkeep’s fields do not give back', () => {
  it('is nothing when the fields give the item back exactly', () => {
    expect(nativeItem('test', { type: 'message', role: 'user', content: 'hi' }, { type: 'message', role: 'user', content: 'hi' })).toBeUndefined();
  });

  it('keeps only the keys the fields do not give, and the keys the item lacks, so the item comes back exactly', () => {
    const item: Item = { role: 'user', content: [{ type: 'input_text', text: 'hi', providerData: { cache: true } }], extra: { a: [1, null] } };
    const fromFields: Item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] };
    const native = nativeItem('test', item, fromFields)!;
    expect(native).toEqual({ format: 'test', keep: { content: item.content, extra: item.extra }, absent: ['type'] });
    expect(rebuild(stored(native), fromFields)).toStrictEqual(item);
  });

  it('gives bytes back as bytes, and leaves out keys whose value is undefined', () => {
    const item: Item = { type: 'result', output: { image: { data: new Uint8Array([0, 1, 254, 255]) } }, providerData: undefined };
    const native = nativeItem('test', item, { type: 'result' })!;
    expect(native.bytes).toEqual([['output', 'image', 'data']]);
    expect(rebuild(stored(native), { type: 'result' })).toStrictEqual({ type: 'result', output: { image: { data: new Uint8Array([0, 1, 254, 255]) } } });
  });

  it('refuses, with a typed error naming where, what JSON cannot hold', () => {
    const refused = (value: unknown): unknown => {
      try {
        nativeItem('openai-agents', { type: 'x', value }, { type: 'x' });
      } catch (err) {
        return err;
      }
      return undefined;
    };
    expect(refused(new Date(0))).toBeInstanceOf(UnstorableItemError);
    expect(refused({ at: () => 1 })).toMatchObject({ code: 'E_UNSTORABLE_ITEM', exitCode: 2, message: expect.stringContaining('function at value.at') });
    expect(refused([Number.NaN])).toMatchObject({ message: expect.stringContaining('NaN at value.0') });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = { back: cyclic };
    expect(refused(cyclic)).toMatchObject({ code: 'E_UNSTORABLE_ITEM', message: expect.stringContaining('(a cycle)') });
    // The same object twice, side by side, is no cycle.
    const shared = { a: 1 };
    expect(refused([shared, shared])).toBeUndefined();
  });
});
