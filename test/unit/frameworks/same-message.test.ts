import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sameMessage } from '../../../src/frameworks/ai-sdk/same-message.js';
import { withoutUndefined } from '../../../src/convert/lossless.js';

const stored = { id: 'a-1', role: 'assistant', metadata: { n: 1 }, parts: [{ type: 'text', text: 'hi', state: 'done' }, { type: 'file', bytes: new Uint8Array([1, 2]) }] };

/** Pairs of (stored, given), each answered as the deep comparison with the given one's undefined keys dropped answers it. */
const CASES: [string, unknown, unknown][] = [
  ['the same, another copy', stored, structuredClone(stored)],
  ['keys in another order', stored, { parts: structuredClone(stored.parts), metadata: { n: 1 }, role: 'assistant', id: 'a-1' }],
  ['an undefined key', stored, { ...structuredClone(stored), extra: undefined }],
  ['a key more', stored, { ...structuredClone(stored), extra: null }],
  ['a key fewer', stored, { id: 'a-1', role: 'assistant', parts: structuredClone(stored.parts) }],
  ['a text changed', stored, { ...structuredClone(stored), parts: [{ type: 'text', text: 'hi!', state: 'done' }, stored.parts[1]] }],
  ['a part more', stored, { ...structuredClone(stored), parts: [...structuredClone(stored.parts), { type: 'step-start' }] }],
  ['bytes changed', stored, { ...structuredClone(stored), parts: [stored.parts[0], { type: 'file', bytes: new Uint8Array([1, 3]) }] }],
  ['bytes as an object', stored, { ...structuredClone(stored), parts: [stored.parts[0], { type: 'file', bytes: { 0: 1, 1: 2 } }] }],
  ['a number as a string', { n: 1 }, { n: '1' }],
  ['-0 for 0', { n: 0 }, { n: -0 }],
  ['NaN for NaN', { n: Number.NaN }, { n: Number.NaN }],
  ['a Date for its text', { at: '2026-11-28T00:00:00.000Z' }, { at: new Date('2026-11-28T00:00:00.000Z') }],
  ['an array for an object', { a: [] }, { a: {} }],
  ['undefined in an array', { a: [null] }, { a: [undefined] }],
  ['a null-prototype object', { a: { b: 1 } }, { a: Object.assign(Object.create(null) as object, { b: 1 }) }],
  ['a class instance', { a: {} }, { a: new (class Thing {})() }],
  ['a stored undefined key', { a: 1, b: undefined }, { a: 1 }],
];

describe('sameMessage: a UI message compared with the stored one without copying', () => {
  it.each(CASES)('%s: as isDeepStrictEqual(stored, withoutUndefined(given))', (_name, before, given) => {
    expect(sameMessage(before, given)).toBe(isDeepStrictEqual(before, withoutUndefined(given)));
  });
  it('tells the same message from a changed one', () => {
    expect(CASES.map(([name, before, given]) => [name, sameMessage(before, given)]).filter(([, same]) => same).map(([name]) => name)).toEqual([
      'the same, another copy', 'keys in another order', 'an undefined key', 'NaN for NaN', 'a null-prototype object',
    ]);
  });
});
