/**
 * What a compacted conversation means for the model (`/compact`): which messages stay live,
 * and what is sent on each turn. Pure functions; the summary itself comes from a provider.
 */
import type { Message } from './data.js';

/** How the summary is put before the live messages, as the conversation's first user message. */
export const SUMMARY_INTRO = 'Summary of our conversation so far (the earlier messages were compacted into it):\n\n';

/**
 * The conversation as a model gets it: the summary, when there is one, then the live messages
 * except superseded answers (`/retry`), which stay in the session but are never sent again.
 */
export function messagesToSend(messages: readonly Message[], summary: string | null): Message[] {
  const live = messages.filter((m) => !m.superseded);
  if (summary === null) return live;
  return [{ role: 'user', content: `${SUMMARY_INTRO}${summary}`, timestamp: messages[0]?.timestamp ?? new Date(0) }, ...live];
}

/**
 * How many of the last messages a compaction keeps live: the last exchange, from the last user
 * message on (its answer, and any it superseded), so the next turn reads on from where it was.
 */
export function keptByCompaction(messages: readonly Message[]): number {
  const last = messages.findLastIndex((m) => m.role === 'user');
  return last < 0 ? 0 : messages.length - last;
}

/** The fewest messages worth summarising: one exchange before the one kept. */
export const MIN_COMPACTED = 2;
