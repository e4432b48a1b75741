import { createHash } from 'node:crypto';
import type { Message, SessionSnapshot } from './data.js';

/**
 * A hash of what a session says (its messages, archived conversations, title, lineage, and the
 * events a newer chatkeep wrote), the same in every store whatever its encoding: a copy is
 * verified against it.
 */
export function contentHash(s: SessionSnapshot): string {
  const message = (m: Message) => [m.role, m.content, m.timestamp.toISOString(), m.interrupted ?? false, m.superseded ?? false];
  const content = {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    summary: s.summary,
    parentId: s.parentId ?? null,
    forkPoint: s.forkPoint ?? null,
    messages: s.messages.map(message),
    archived: s.archived.map((a) => ({ at: a.archivedAt.toISOString(), summary: a.summary, messages: a.messages.map(message) })),
    // Only when there are some, so the hash of every other session stays what it was.
    ...(s.futureEvents?.length ? { futureEvents: s.futureEvents.map((e) => e.line) } : {}),
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
