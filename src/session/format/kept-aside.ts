/**
 * Damaged parts of a session moved aside and still kept (docs/design.md §5): a snapshot renamed
 * to `session.json.corrupt-<time>`, a journal copied beside it, a row in `chatkeep.quarantine`.
 * While one is kept, the session is listed with the problem `recovered`, even when nothing of
 * it could be read: a session is never hidden while anything of it is stored. Removing what is
 * kept (once its owner has what they need from it) ends the problem.
 */
import type { IndexRow, SessionProblem } from '../api/listing.js';

/** The problem a session with these parts kept aside has, if any. */
export function keptAsideProblem(aside: readonly string[] | undefined): SessionProblem | undefined {
  if (!aside || aside.length === 0) return undefined;
  return { kind: 'recovered', detail: `damaged ${aside.length === 1 ? 'part' : 'parts'} kept at ${aside.join(', ')}` };
}

/** `row` with the problem of what is kept aside, unless it already has one (a damage found now says more). */
export function withKeptAside(row: IndexRow, aside: readonly string[] | undefined): IndexRow {
  const problem = row.problem ? undefined : keptAsideProblem(aside);
  return problem ? { ...row, problem } : row;
}
