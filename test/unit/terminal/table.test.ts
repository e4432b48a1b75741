import { beforeAll, describe, expect, it } from 'vitest';
import { loadWidths, type Widths } from '../../../src/terminal/table.js';
import { fitRows, fitTable } from '../../../src/terminal/fit-table.js';

let widths: Widths;
beforeAll(async () => {
  widths = await loadWidths();
});
const displayWidth = (text: string): number => widths.displayWidth(text);
const truncate = (text: string, max: number): string => widths.truncate(text, max);

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

describe('fitTable', () => {
  it('aligns columns by display width and cuts a column only as much as the width asks', () => {
    const lines = fitTable(widths, 
      [
        ['日本', '1', 'a long title that goes on'],
        ['ab', '22', 'short'],
      ],
      [{}, { align: 'right' }, {}],
      [{ cut: 2, to: 3 }],
      { width: 20 },
    );
    expect(lines).toEqual(['日本   1  a long ti…', 'ab    22  short']);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
  });

  it('applies its plan in order and stops once the rows fit: shorten, cut to a floor, drop', () => {
    const rows = [['id-1', '5 minutes ago', 'a title of some length']];
    const columns = [{}, { short: ['5m ago'] }, {}];
    const plan = [{ shorten: 1 }, { cut: 2, to: 10 }, { drop: 1 }] as const;
    expect(fitTable(widths, rows, columns, plan, { width: 80 })).toEqual(['id-1  5 minutes ago  a title of some length']);
    expect(fitTable(widths, rows, columns, plan, { width: 36 })).toEqual(['id-1  5m ago  a title of some length']);
    expect(fitTable(widths, rows, columns, plan, { width: 26 })).toEqual(['id-1  5m ago  a title of…']);
    expect(fitTable(widths, rows, columns, plan, { width: 20 })).toEqual(['id-1  a title of so…']);
    // Narrower than what the plan keeps: the row itself is cut, never wrapped.
    expect(fitTable(widths, rows, columns, plan, { width: 8 })).toEqual(['id-1  a…']);
  });

  it('leaves out a column no row has anything in, and caps a column without a width only where asked', () => {
    expect(fitTable(widths, [['x', '', 'abcdefghij']], [{}, {}, { pipedMax: 5 }], [])).toEqual(['x  abcd…']);
    expect(fitTable(widths, [['x', '', 'abcdefghij']], [{}, {}, {}], [])).toEqual(['x  abcdefghij']);
  });
});

describe('fitRows', () => {
  it('gives each line with the columns it takes, as measured whole: wide, cut, kept tails and the last resort', () => {
    const rows = [
      ['日本語', '1', 'a title 👍🏽 that goes on and on', ''],
      ['ab', '22', 'café au lait, and a long way after it', 'x'],
      ['e\u0301', '', '数据 сессия ✅', ''],
    ];
    const columns = [{}, { align: 'right' as const }, { tail: ['', '  +2 forks', ''] }, {}];
    for (const width of [undefined, 60, 40, 24, 12, 5]) {
      const { lines, used } = fitRows(widths, rows, columns, [{ cut: 2, to: 6 }], { width });
      expect(lines).toEqual(fitTable(widths, rows, columns, [{ cut: 2, to: 6 }], { width }));
      expect(used, String(width)).toEqual(lines.map((line) => displayWidth(line)));
      if (width !== undefined) for (const n of used) expect(n).toBeLessThanOrEqual(width);
    }
  });
});

describe('graphemeWidths', () => {
  it('gives the graphemes Intl.Segmenter gives, where ASCII stands before a mark, a joiner or a flag too', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const text of ['plain ascii', 'cafe\u0301 au lait', 'a👍🏽b', 'x👩‍💻y', 'go 🇫🇷!', 'a\u200db', '日本 ok', 'end e\u0301', '\u0301start', 'k\r\nl', '']) {
      const got = [...widths.graphemeWidths(text)];
      expect(got.map(([segment]) => segment), text).toEqual([...segmenter.segment(text)].map((s) => s.segment));
      expect(got.reduce((sum, [, w]) => sum + w, 0), text).toBe(displayWidth(text));
    }
  });

  it('cuts mostly-ASCII text without splitting what follows the ASCII', () => {
    expect(truncate('path/to/cafe\u0301/x', 13)).toBe('path/to/cafe\u0301…');
    expect(truncate('flags 🇫🇷🇩🇪 here', 9)).toBe('flags 🇫🇷…');
  });
});
