/**
 * What a compacted conversation means for the model (`/compact`): which messages stay live,
 * and what is sent on each turn. Pure functions; the summary itself comes from a provider.
 */
import type { Message } from '../api/data.js';
import { closeToolCalls, partsFor } from './history.js';

/** How the summary is put before the live messages, as the conversation's first user message. */
export const SUMMARY_INTRO = 'Summary of our conversation so far (the earlier messages were compacted into it):\n\n';

/**
 * The conversation as a model gets it: the summary, when there is one, then the live messages
 * except superseded answers (`/retry`), which stay in the session but are never sent again;
 * every tool call followed by its result (history.ts). Reasoning and native parts go only to
 * the provider that wrote them: name it as `options.provider` (without one, none is sent).
 */
export function messagesToSend(messages: readonly Message[], summary: string | null, options: { provider?: string } = {}): Message[] {
  return withSummary(partsFor(closeToolCalls(messages.filter((m) => !m.superseded)), options.provider), summary, messages);
}

/** `live` after the summary, when there is one, as the conversation's first user message (dated as `messages` begin). */
export function withSummary(live: Message[], summary: string | null, messages: readonly Message[]): Message[] {
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
