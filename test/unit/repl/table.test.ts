import { beforeAll, describe, expect, it } from 'vitest';
import { displayWidth, layoutTable, loadTableWidths, truncate } from '../../../src/repl/table.js';

beforeAll(loadTableWidths);

describe('truncate', () => {
  it('keeps text that fits and cuts the rest by display width, ending in …', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdefghijkl', 6)).toBe('abcde…');
    expect(truncate('日本語のタイトル', 7)).toBe('日本語…');
    expect(displayWidth(truncate('日本語のタイトル', 7))).toBeLessThanOrEqual(7);
  });

  it('never splits an emoji and shows newlines as spaces', () => {
    expect(truncate('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
    expect(truncate('one\ntwo', 20)).toBe('one two');
    expect(truncate('one two three', 9)).toBe('one two…');
  });
});

describe('layoutTable', () => {
  it('aligns columns by display width and cuts the flexible column to the width left', () => {
    const lines = layoutTable(
      [
        ['日本', '1', 'a long title that goes on'],
        ['ab', '22', 'short'],
      ],
      [{}, { align: 'right' }, { flex: { max: Infinity, min: 3 } }],
      { width: 20 },
    );
    expect(lines).toEqual(['日本   1  a long ti…', 'ab    22  short']);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
  });

  it('caps the flexible column at its max without a width', () => {
    expect(layoutTable([['x', 'abcdefghij']], [{}, { flex: { max: 5, min: 1 } }])).toEqual(['x  abcd…']);
  });
});
