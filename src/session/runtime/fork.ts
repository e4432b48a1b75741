/**
 * A fork: a new session that starts as a copy of another one's first N messages (after a lost
 * lock, the point where two writers diverged; later, `/fork`). Pure: builds the new session's
 * state; the manager reserves its ID and writes it.
 */
import { blankSnapshot } from '../format/blank.js';
import { NothingToUncompactError, UserError } from '../api/errors.js';
import { archivedBy } from '../api/archived-by.js';
import { beforeCompaction, lastCompaction } from '../model/uncompact.js';
import { addMessage } from '../model/apply-event.js';
import { rowLine } from '../model/future-events.js';
import { graphEvents } from '../api/graph-events.js';
import type { SessionSnapshot } from '../api/data.js';
import { plural } from '../../text/plural.js';

/** Where a fork starts: `at` messages of `source` (default all); a bad `at` is a UserError. */
export function forkPoint(source: SessionSnapshot, at: number | undefined): number {
  const count = source.messages.length;
  if (at === undefined) return count;
  if (!Number.isInteger(at) || at < 0 || at > count) {
    throw new UserError(`Cannot fork ${source.id} at message ${at}: it has ${plural(count, 'message')} (give 0 to ${count}).`, 'E_FORK_POINT');
  }
  return at;
}

/** Which conversation of a session a fork copies (default: the live one). */
export interface ForkFrom {
  /** An archived part (its index in `archived`): its messages, and the summary they were read with. */
  archived?: number;
  /** The conversation as it was before the last compaction: what it archived, then what it kept live. */
  uncompact?: boolean;
}

/**
 * `source` with the conversation a fork copies as its live one. A part that is not there, or
 * holds no messages (the summary `/uncompact` set aside), is a UserError; so is `uncompact`
 * with no compaction to undo.
 */
export function forkView(source: SessionSnapshot, from: ForkFrom): SessionSnapshot {
  if (from.uncompact) {
    const index = lastCompaction(source);
    if (index === undefined) throw new NothingToUncompactError();
    return { ...source, ...beforeCompaction(source, index) };
  }
  if (from.archived === undefined) return source;
  const part = source.archived[from.archived];
  if (part === undefined || archivedBy(source, from.archived) === 'uncompact') {
    throw new UserError(`${source.id} has no archived conversation ${from.archived} (it has ${plural(source.archived.length, 'archived part')}).`, 'E_FORK_POINT');
  }
  return { ...source, messages: part.messages, summary: part.summary };
}

/** The new session's state: the parent's settings and its first `at` messages, recording where it came from. */
export function forkState(
  source: SessionSnapshot,
  at: number,
  fork: { id: string; project: string; createdAt: Date; toolVersion: string; title?: string },
): SessionSnapshot {
  const state: SessionSnapshot = {
    ...blankSnapshot(fork.id, fork.project, fork.createdAt, fork.toolVersion),
    title: fork.title ?? source.title,
    provider: { ...source.provider },
    systemPrompt: source.systemPrompt ? { ...source.systemPrompt } : null,
    config: structuredClone(source.config),
    // A summary stands for the archived messages, which come before every live one (a compaction
    // keeps its last exchange live, unsummarised): it holds for a fork cut anywhere among them.
    summary: source.summary,
    parentId: source.id,
    forkPoint: at,
  };
  for (const message of structuredClone(source.messages.slice(0, at))) addMessage(state, message);
  return state;
}

/**
 * A LangGraph thread's checkpoints and pending writes (its graph events, graph-events.ts) go with a
 * fork that copies the live conversation whole, so the graph run on the fork (its `thread_id` the
 * fork's ID) carries on from the parent's last checkpoint, and the parent is never written. They
 * are numbered afresh from 1 in the order written, the fork's own events after them. A fork cut
 * earlier, or of an archived conversation, holds none: its checkpoints would hold messages it does not.
 */
export function forkGraph(source: SessionSnapshot, state: SessionSnapshot): void {
  const events = graphEvents(source.futureEvents);
  if (events.length === 0) return;
  state.futureEvents = events.map((e, i) => {
    const { payload } = JSON.parse(e.line) as { payload: unknown };
    return { seq: i + 1, ts: e.ts, type: e.type, line: rowLine(i + 1, e.ts, e.type, JSON.stringify(payload)) };
  });
  state.journalSeq = events.length;
}
