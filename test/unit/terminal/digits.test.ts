import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../../src/terminal/digits.js';

describe('groupDigits', () => {
  it("groups a number's thousands as toLocaleString('en-US') does", () => {
    const values = [0, 7, 999, 1000, 1234, 99_999, 100_000, 1_047_576, 240_000_000, -1234, 2 ** 53 - 1];
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n);
    for (const n of values) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});
