import { createHash } from 'node:crypto';
import type { Message, SessionSnapshot } from '../api/data.js';

/**
 * A hash of what a session says (its messages, archived conversations, title, lineage, and the
 * events a newer chatkeep wrote), the same in every store whatever its encoding: a copy is
 * verified against it.
 */
export function contentHash(s: SessionSnapshot): string {
  const message = (m: Message) => {
    const fields = [m.role, m.content, m.timestamp.toISOString(), m.interrupted ?? false, m.superseded ?? false];
    // What an agent's message holds besides (schemaVersion 3), only when it has some: other hashes stay as they were.
    const { role: _r, content: _c, timestamp: _t, interrupted: _i, superseded: _s, usage: _u, model: _m, toolCalls: _tc, toolCallId: _ti, ...rest } = m;
    return Object.keys(rest).length === 0 ? fields : [...fields, JSON.stringify(rest)];
  };
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
