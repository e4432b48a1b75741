/**
 * The messages of yours a conversation can be rewound to (`/rewind` without N): every user
 * message of the conversation as you had it, newest first: the live ones, then those `/compact`
 * archived (each part read with the summary it had), back to the last `/reset`, which began
 * another conversation. Pure.
 */
import { archivedBy } from '../api/archived-by.js';
import type { ArchivedSegment, Message } from '../api/data.js';

/** A message of yours: where it is (`archived`: the part's index; absent: live) and how many messages come before it there. */
export interface RewindPoint {
  text: string;
  at: number;
  archived?: number;
}

type Conversation = { readonly archived: readonly ArchivedSegment[]; readonly summary: string | null; readonly messages: readonly Message[] };

/** Your messages, newest first. */
export function rewindPoints(s: Conversation): RewindPoint[] {
  const points = userMessages(s.messages);
  for (let i = s.archived.length - 1; i >= 0; i--) {
    const by = archivedBy(s, i);
    if (by === 'reset') break;
    if (by === 'compact') points.push(...userMessages(s.archived[i]!.messages).map((p) => ({ ...p, archived: i })));
  }
  return points;
}

function userMessages(messages: readonly Message[]): RewindPoint[] {
  return messages.flatMap((m, at) => (m.role === 'user' ? [{ text: m.content, at }] : [])).reverse();
}
