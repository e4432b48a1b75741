import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../src/session/format/iso-date.js';

/** The same instant (or the same Invalid Date) as `new Date(text)`. */
function same(text: string): void {
  expect({ text, ms: isoDate(text).getTime() }).toEqual({ text, ms: new Date(text).getTime() });
}

describe('isoDate', () => {
  it("reads toISOString's text as new Date does, across years, months and leap days", () => {
    let checked = 0;
    // Every day of 1968–1973 and 1999–2001 (leap years, century rules), at varied times of day.
    for (const [from, to] of [[Date.UTC(1968, 0, 1), Date.UTC(1974, 0, 1)], [Date.UTC(1999, 0, 1), Date.UTC(2002, 0, 1)]] as const) {
      for (let t = from; t < to; t += 86_400_000 + 3_601_001) {
        same(new Date(t).toISOString());
        checked++;
      }
    }
    for (const t of [0, -1, 951_782_400_000, 4_107_542_399_999, -62_167_219_200_000, 253_402_300_799_999, Date.UTC(2100, 1, 28, 23, 59, 59, 999)]) same(new Date(t).toISOString());
    expect(checked).toBeGreaterThan(2500);
  });

  it('hands anything else to new Date: out-of-range fields, other shapes, non-digits', () => {
    for (const text of [
      '2025-02-29T00:00:00.000Z', '2025-02-30T00:00:00.000Z', '2024-02-30T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T12:00:00.000Z',
      '2025-04-31T00:00:00.000Z', '2025-13-01T00:00:00.000Z', '2025-00-01T00:00:00.000Z', '2025-01-00T00:00:00.000Z',
      '2025-01-01T24:00:00.000Z', '2025-01-01T23:60:00.000Z', '2025-01-01T23:59:60.000Z',
      '2025-01-01T00:00:00.5Z', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00.1234Z', '2025-01-01T00:00:00.000+01:00',
      '2025-01-01 00:00:00.000Z', '2025-01-01T00:00:00,000Z', '2025-0a-01T00:00:00.000Z', '202５-01-01T00:00:00.000Z',
      '+02025-01-01T00:00:00.000Z', 'not a date at all, 24 ch', '', 'Sun Nov 01 2026',
    ]) same(text);
  });

  it('makes a new Date each time (a caller may change it)', () => {
    const a = isoDate('2026-11-01T09:30:00.000Z');
    const b = isoDate('2026-11-01T09:30:00.000Z');
    expect(a).not.toBe(b);
    expect(a.toISOString()).toBe('2026-11-01T09:30:00.000Z');
  });
});
