/**
 * `5 minutes ago`, `about 2 hours ago`, `over 1 year ago`: how long ago a time was, in the words
 * chatkeep has always used (date-fns' `formatDistance` thresholds and wording). Synchronous and
 * pure: nothing to load first, no package to install, so a library user, an adapter and the CLI
 * all call it as they are.
 */

const MINUTES_IN_DAY = 1440;
const MINUTES_IN_ALMOST_TWO_DAYS = 2520;
const MINUTES_IN_MONTH = 43200;

/** How long before `now` `date` was; a time slightly ahead of the clock counts as now. */
export function relativeTime(date: Date, now: Date): string {
  const then = date.getTime() > now.getTime() ? now : date;
  // Time elapsed, whatever the clocks did meanwhile: across a change to summer time date-fns
  // subtracted the hour and said `-16 minutes ago` of 44 minutes.
  const minutes = Math.round(Math.trunc((now.getTime() - then.getTime()) / 1000) / 60);
  const ago = (count: number, unit: Unit, qualifier = ''): string => `${qualifier}${inEnglish(count, unit)}`;
  if (minutes === 0) return 'less than a minute ago';
  if (minutes < 45) return ago(minutes, 'minute');
  if (minutes < 90) return ago(1, 'hour', 'about ');
  if (minutes < MINUTES_IN_DAY) return ago(Math.round(minutes / 60), 'hour', 'about ');
  if (minutes < MINUTES_IN_ALMOST_TWO_DAYS) return ago(1, 'day');
  if (minutes < MINUTES_IN_MONTH) return ago(Math.round(minutes / MINUTES_IN_DAY), 'day');
  if (minutes < MINUTES_IN_MONTH * 2) return ago(Math.round(minutes / MINUTES_IN_MONTH), 'month', 'about ');
  const months = wholeMonths(now, then);
  if (months < 12) return ago(Math.round(minutes / MINUTES_IN_MONTH), 'month');
  const years = Math.trunc(months / 12);
  const beyond = months % 12;
  if (beyond < 3) return ago(years, 'year', 'about ');
  if (beyond < 9) return ago(years, 'year', 'over ');
  return ago(years + 1, 'year', 'almost ');
}

type Unit = 'minute' | 'hour' | 'day' | 'month' | 'year';

/**
 * `count` `unit`s ago, as `Intl.RelativeTimeFormat('en', { numeric: 'always' })` writes it
 * (`1 day ago`, `3 hours ago`, `1,200 years ago`; a test holds the two together). Written here
 * because building that formatter loads the runtime's locale data: 10–12 ms of CPU on Node 20,
 * spent before the first request of every resumed session, whose first line says when it was
 * last active (docs/internals.md, "Start to first prompt, by CPU").
 */
function inEnglish(count: number, unit: Unit): string {
  const digits = String(count).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${digits} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** Whole calendar months from `earlier` to `later` (local time): a month counts once its day is reached. */
function wholeMonths(later: Date, earlier: Date): number {
  const calendar = (later.getFullYear() - earlier.getFullYear()) * 12 + later.getMonth() - earlier.getMonth();
  if (calendar < 1) return 0;
  const back = new Date(later.getTime());
  // 29 February onwards: stepping back a whole number of months from late February lands past the month's end otherwise.
  if (back.getMonth() === 1 && back.getDate() > 27) back.setDate(30);
  back.setMonth(back.getMonth() - calendar);
  let short = back.getTime() < earlier.getTime();
  // The last day of a month is a whole month after any day of the month before (30 April after 31 March).
  if (isLastDayOfMonth(later) && calendar === 1 && later.getTime() > earlier.getTime()) short = false;
  return calendar - (short ? 1 : 0);
}

function isLastDayOfMonth(date: Date): boolean {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getDate() === 1;
}
