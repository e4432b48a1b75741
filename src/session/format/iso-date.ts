/**
 * A Date from the text `Date.prototype.toISOString` writes (`2026-11-01T09:30:00.000Z`), as
 * `new Date(text)` makes it. A resume revives one per message (2,000 in a 2,000-message
 * snapshot), and `new Date` of a string runs V8's general date parser, about 2.5 times what
 * reading the 24 digits here costs (docs/internals.md, "Resume's Dates from their digits").
 * Any other text, or a field out of its range (which `new Date` normalises or refuses), is handed
 * to `new Date`: the answer is always `new Date(text)`'s.
 */

/** Days before each month of a common year. */
const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isoDate(text: string): Date {
  const ms = text.length === 24 ? isoMillis(text) : Number.NaN;
  return Number.isNaN(ms) ? new Date(text) : new Date(ms);
}

/** The milliseconds of a 24-character ISO timestamp, or NaN when `new Date` must decide. */
function isoMillis(s: string): number {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) {
    return Number.NaN;
  }
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  // A non-digit is NaN, which fails every comparison (and makes the sum NaN): `new Date` decides.
  if (!(month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0)) return Number.NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN[month - 1]! + (leap && month === 2 ? 1 : 0)) return Number.NaN;
  const y = year - 1;
  // Days from 1 January 1970 to 1 January of `year` (proleptic Gregorian, as ECMAScript counts).
  const yearDays = 365 * (year - 1970) + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) - 477;
  const days = yearDays + DAYS_BEFORE[month - 1]! + (leap && month > 2 ? 1 : 0) + day - 1;
  return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
}

/** The number written by `count` ASCII digits at `at`, or NaN if any is not a digit. */
function digits(s: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}
