/** The browser's filters (branch, status, age): each cycles through its choices with one key. Pure. */
import type { SessionStatus } from '../session/api/data.js';
import type { SessionSummary } from '../session/api/listing.js';

export interface Filters {
  branch: string | null;
  status: SessionStatus | null;
  /** Updated within this many days. */
  days: number | null;
}

export const NO_FILTERS: Filters = { branch: null, status: null, days: null };

const STATUSES: readonly (SessionStatus | null)[] = [null, 'open', 'closed', 'interrupted'];
const AGES: readonly (number | null)[] = [null, 1, 7, 30, 365];

/** The next choice after `current` in `choices` (wrapping to the first). */
function next<T>(choices: readonly T[], current: T): T {
  return choices[(choices.indexOf(current) + 1) % choices.length]!;
}

/** The branches of `rows`, most recently used first, then none. */
export function nextBranch(rows: readonly SessionSummary[], current: string | null): string | null {
  const branches: (string | null)[] = [null];
  for (const row of rows) if (row.branch !== undefined && !branches.includes(row.branch)) branches.push(row.branch);
  return next(branches, current);
}

export const nextStatus = (current: SessionStatus | null): SessionStatus | null => next(STATUSES, current);
export const nextAge = (current: number | null): number | null => next(AGES, current);

/** True when `row` passes every filter that is on. */
export function passes(row: SessionSummary, filters: Filters, now: Date): boolean {
  if (filters.branch !== null && row.branch !== filters.branch) return false;
  if (filters.status !== null && row.status !== filters.status) return false;
  if (filters.days !== null && now.getTime() - row.updatedAt.getTime() > filters.days * 86_400_000) return false;
  return true;
}

/** The line that says which filters are on (and the keys that change them). */
export function filterLine(filters: Filters): string {
  const on = [
    filters.branch !== null ? `branch ${filters.branch}` : undefined,
    filters.status !== null ? `status ${filters.status}` : undefined,
    filters.days !== null ? `updated within ${filters.days === 1 ? 'a day' : `${filters.days} days`}` : undefined,
  ].filter((part) => part !== undefined);
  return `Filters: ${on.length === 0 ? 'none' : on.join(' · ')}  (^B branch, ^T status, ^G age)`;
}
