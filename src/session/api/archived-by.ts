/**
 * What archived each segment of a session: `/compact` leaves a summary in place of the messages it
 * archives, `/reset` leaves none. A segment does not record which it was, but the summary that
 * followed it does: the next segment's `summary` (the one live when that segment was archived),
 * or, for the newest segment, the session's own. Readers say "cleared by /reset" or "summarised
 * by /compact" from this, never one for both. The part `/uncompact` leaves (the summary it set
 * aside) says so itself (`by`), and is passed over when looking at what followed a segment: the
 * summary it holds is the one undone, not one that followed anything still archived.
 */
import type { SessionSnapshot } from './data.js';

export type ArchivedBy = 'reset' | 'compact' | 'uncompact';

type Archive = { readonly archived: readonly SessionSnapshot['archived'][number][]; readonly summary: string | null };

/** What archived segment `index` of `s.archived`. */
export function archivedBy(s: Archive, index: number): ArchivedBy {
  if (s.archived[index]?.by === 'uncompact') return 'uncompact';
  const next = s.archived.slice(index + 1).find((segment) => segment.by !== 'uncompact');
  return (next ? next.summary : s.summary) === null ? 'reset' : 'compact';
}

/** How many archived messages each of `/reset` and `/compact` cleared. */
export function archivedCounts(s: Archive): Record<ArchivedBy, number> {
  const counts: Record<ArchivedBy, number> = { reset: 0, compact: 0, uncompact: 0 };
  s.archived.forEach((segment, i) => (counts[archivedBy(s, i)] += segment.messages.length));
  return counts;
}

/** `4 summarised by /compact and 2 cleared by /reset` (the parts there are; '' when none). */
export function archivedText(s: Archive): string {
  const counts = archivedCounts(s);
  return [
    counts.compact > 0 ? `${counts.compact} summarised by /compact` : '',
    counts.reset > 0 ? `${counts.reset} cleared by /reset` : '',
  ]
    .filter((part) => part !== '')
    .join(' and ');
}
