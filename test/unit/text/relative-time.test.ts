import { formatDistance } from 'date-fns/formatDistance';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { relativeTime } from '../../../src/text/relative-time.js';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

describe('relativeTime', () => {
  // date-fns counts a change to or from summer time as elapsed time (see the last test): compared where there is none.
  const zone = process.env.TZ;
  beforeAll(() => void (process.env.TZ = 'UTC'));
  afterAll(() => void (zone === undefined ? delete process.env.TZ : (process.env.TZ = zone)));

  it('says what date-fns formatDistance said, for every span from seconds to decades', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    const spans = [0, 1_000, 29_000, 31_000, 59_000, 89_000, 91_000, 44 * MINUTE, 45 * MINUTE, 89 * MINUTE, 90 * MINUTE, 23 * 60 * MINUTE, 1439 * MINUTE, 1440 * MINUTE, 2519 * MINUTE, 2520 * MINUTE, 29 * DAY, 30 * DAY, 59 * DAY, 60 * DAY, 200 * DAY, 364 * DAY, 366 * DAY, 500 * DAY, 700 * DAY, 3000 * DAY];
    for (let m = 1; m < 40 * 12; m += 7) spans.push(m * 30.4 * DAY);
    for (const span of spans) {
      for (const at of [now, new Date('2024-02-29T23:30:00Z'), new Date('2026-10-25T01:30:00Z')]) {
        const then = new Date(at.getTime() - span);
        expect(`${span}: ${relativeTime(then, at)}`).toBe(`${span}: ${formatDistance(then, at, { addSuffix: true })}`);
      }
    }
  });

  it('counts a time ahead of the clock as now, and needs nothing loaded first', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    expect(relativeTime(new Date(now.getTime() + 5 * MINUTE), now)).toBe('less than a minute ago');
    expect(relativeTime(new Date(now.getTime() - 5 * MINUTE), now)).toBe('5 minutes ago');
    expect(relativeTime(new Date(now.getTime() - 2 * 60 * MINUTE), now)).toBe('about 2 hours ago');
  });

  it('writes each count as Intl.RelativeTimeFormat does in English, thousands grouped, without building one', async () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const built = vi.spyOn(Intl, 'RelativeTimeFormat');
    try {
      // A copy of the module of its own: nothing the tests above did is kept in it.
      vi.resetModules();
      const { relativeTime } = await import('../../../src/text/relative-time.js');
      const now = new Date('2026-03-31T12:00:00Z');
      const cases: [number, Intl.RelativeTimeFormatUnit, string][] = [
        ...[1, 2, 21, 44].map((n): [number, Intl.RelativeTimeFormatUnit, string] => [n * MINUTE, 'minute', '']),
        ...[2, 11, 23].map((n): [number, Intl.RelativeTimeFormatUnit, string] => [n * 60 * MINUTE, 'hour', 'about ']),
        ...[1, 2, 29].map((n): [number, Intl.RelativeTimeFormatUnit, string] => [n * DAY, 'day', '']),
      ];
      for (const [span, unit, qualifier] of cases) {
        const count = Math.round(span / { minute: MINUTE, hour: 60 * MINUTE, day: DAY }[unit as 'minute' | 'hour' | 'day']);
        expect(relativeTime(new Date(now.getTime() - span), now)).toBe(`${qualifier}${intl.format(-count, unit)}`);
      }
      // Years by the thousand: a date from long ago (a clock reset, an import) still reads as before.
      const then = new Date(now.getTime());
      then.setFullYear(then.getFullYear() - 1_200);
      expect(relativeTime(then, now)).toBe(`about ${intl.format(-1_200, 'year')}`);
      expect(relativeTime(then, now)).toBe('about 1,200 years ago');
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });

  it('counts the time elapsed across a change to summer time', () => {
    process.env.TZ = 'Europe/Berlin';
    try {
      const now = new Date('2026-03-29T01:30:00Z');
      expect(relativeTime(new Date(now.getTime() - 44 * MINUTE), now)).toBe('44 minutes ago');
    } finally {
      process.env.TZ = 'UTC';
    }
  });
});
