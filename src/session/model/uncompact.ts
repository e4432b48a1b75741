/**
 * Undoing the last compaction (`/uncompact`). Pure: which archived part the last `/compact` made,
 * whether messages came after it, and the state with its messages live again. Undone in place
 * when nothing was added since; else the messages as they were then go to a fork (manager.ts),
 * since the later replies were written against the summary, not the messages it stood for.
 */
import { statsOf } from './stats.js';
import type { ArchivedSegment, Message, SessionSnapshot, SessionStats } from '../api/data.js';

/** What these read of a session: a snapshot, or a live `Session`. */
type Archive = { readonly archived: readonly ArchivedSegment[]; readonly summary: string | null; readonly messages: readonly Message[] };

/**
 * The index in `s.archived` of the part the last compaction archived: the newest part not set
 * aside by an earlier `/uncompact`, when a summary stands for it. Undefined when there is
 * nothing to undo (never compacted, or cleared by `/reset` since).
 */
export function lastCompaction(s: Archive): number | undefined {
  if (s.summary === null) return undefined;
  const index = s.archived.findLastIndex((segment) => segment.by !== 'uncompact');
  return index < 0 ? undefined : index;
}

/**
 * How many of the live messages the compaction kept: those dated no later than it. Messages
 * sent since are dated after it (a message is dated when it is added).
 */
export function keptLive(s: Archive, index: number): number {
  const at = s.archived[index]!.archivedAt.getTime();
  const since = s.messages.findIndex((m) => m.timestamp.getTime() > at);
  return since < 0 ? s.messages.length : since;
}

/** The conversation as it was before that compaction: its archived messages, then the ones it kept live. */
export function beforeCompaction(s: Archive, index: number): { messages: Message[]; summary: string | null } {
  const segment = s.archived[index]!;
  return { messages: [...segment.messages, ...s.messages.slice(0, keptLive(s, index))], summary: segment.summary };
}

/**
 * Undoes the last compaction in place (an `uncompact` event): its messages live again ahead of
 * the live ones, the summary before it back in force, and the summary undone kept in the archive
 * as a part of its own (no messages, what it cost), so the session's totals still add up.
 */
export function uncompactInPlace(s: SessionSnapshot, at: Date): void {
  const index = lastCompaction(s);
  if (index === undefined) return;
  const [segment] = s.archived.splice(index, 1) as [ArchivedSegment];
  const aside: ArchivedSegment = { archivedAt: at, messages: [], summary: s.summary, stats: costOf(segment), by: 'uncompact' };
  s.archived.push(aside);
  s.messages = [...segment.messages, ...s.messages];
  s.summary = segment.summary;
  s.stats = statsOf(s.messages);
}

/** What a compacted part's counters hold beyond its messages': what asking for the summary cost. */
function costOf(segment: ArchivedSegment): SessionStats {
  const own = statsOf(segment.messages);
  const cost: SessionStats = {
    messageCount: 0,
    inputTokens: Math.max(0, segment.stats.inputTokens - own.inputTokens),
    outputTokens: Math.max(0, segment.stats.outputTokens - own.outputTokens),
  };
  const byModel = (segment.stats.byModel ?? []).flatMap((m) => {
    const mine = own.byModel?.find((o) => o.model === m.model);
    const entry = { model: m.model, inputTokens: Math.max(0, m.inputTokens - (mine?.inputTokens ?? 0)), outputTokens: Math.max(0, m.outputTokens - (mine?.outputTokens ?? 0)) };
    return entry.inputTokens + entry.outputTokens > 0 ? [entry] : [];
  });
  if (byModel.length > 0) cost.byModel = byModel;
  return cost;
}
