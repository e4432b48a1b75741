/**
 * Scoring, ranking and the shape of results: shared by every store. A store finds the
 * sessions whose messages hold the query and counts the hits (the file store by scanning its
 * index, PostgreSQL from its candidate rows with {@link countHits}); this module does the rest,
 * so every store gives the same output for the same sessions.
 */
import type { Message, Role, SessionSnapshot } from '../session/api/data.js';
import type { SessionSummary } from '../session/api/listing.js';
import { countOccurrences, fold } from './fold.js';
import { makeSnippet } from './snippet.js';
import type { SearchResult } from '../session/api/search-data.js';

/** A message as search sees it: archived ones (cleared by `/reset`) first, then the live ones. */
export interface SearchableMessage {
  role: Role;
  content: string;
  timestamp: Date;
  archived: boolean;
}

/** A session's messages in the order search numbers them. */
export function searchableMessages(snapshot: Pick<SessionSnapshot, 'archived' | 'messages'>): SearchableMessage[] {
  const of = (m: Message, archived: boolean): SearchableMessage => ({ role: m.role, content: m.content, timestamp: m.timestamp, archived });
  return [...snapshot.archived.flatMap((segment) => segment.messages.map((m) => of(m, true))), ...snapshot.messages.map((m) => of(m, false))];
}

/** Hits in a session's messages: the total, and the message with the most (the latest of equals). */
export interface MessageHits {
  hits: number;
  best?: { message: number; hits: number };
}

/** Counts hits message by message (for stores that hand over candidate messages). */
export function countHits(messages: readonly { content: string }[], folded: string): MessageHits {
  const out: MessageHits = { hits: 0 };
  messages.forEach((m, i) => {
    const n = countOccurrences(fold(m.content), folded);
    out.hits += n;
    if (n > 0 && (!out.best || n >= out.best.hits)) out.best = { message: i, hits: n };
  });
  return out;
}

/** A session that matched, before its snippet is made. */
export interface Scored extends MessageHits {
  session: SessionSummary;
  idMatch: boolean;
  titleHits: number;
}

/**
 * Scores a session from its ID, title and message hits; undefined when nothing matched (then its
 * listing row need not even be made). `foldedTitle`: the title already folded, where a store
 * keeps it so (folding costs ~1 µs).
 */
export function score(
  session: { id: string; title: string | null },
  folded: string,
  messages: MessageHits,
  foldedTitle = fold(session.title ?? ''),
): Omit<Scored, 'session'> | undefined {
  // IDs are ASCII (`[A-Za-z0-9._-]`): lowercasing folds them.
  const idMatch = session.id.toLowerCase().includes(folded);
  const titleHits = countOccurrences(foldedTitle, folded);
  if (!idMatch && titleHits === 0 && messages.hits === 0) return undefined;
  // Field by field: a spread of `messages` (with or without `best`) cost ~2 µs a session, a
  // fifth of a second when a word in nearly every message matches 100,000 of them.
  const scored: Omit<Scored, 'session'> = { hits: messages.hits, idMatch, titleHits };
  if (messages.best) scored.best = messages.best;
  return scored;
}

/** What ranking looks at: a store may rank before it has made the listing rows of its matches. */
export interface Rankable {
  hits: number;
  titleHits: number;
  session: { id: string; updatedAt: Date };
}

/** Best first: more hits (title and messages), then the most recently active, then by ID (unique: a total order). */
export function byRelevance(a: Rankable, b: Rankable): number {
  return (
    b.hits + b.titleHits - (a.hits + a.titleHits) ||
    b.session.updatedAt.getTime() - a.session.updatedAt.getTime() ||
    (a.session.id < b.session.id ? -1 : a.session.id > b.session.id ? 1 : 0)
  );
}

/**
 * The first `limit` (0: all) of `scored`, best first. A few of many (a word in nearly every
 * message matches every session; a search shows 20) are kept in a heap of `limit`, the worst of
 * them on top, instead of sorting them all: the same first `limit`, since the order is total.
 */
export function rank<T extends Rankable>(scored: readonly T[], limit: number): T[] {
  if (limit <= 0 || limit * 4 >= scored.length) {
    const sorted = scored.slice().sort(byRelevance);
    return limit > 0 ? sorted.slice(0, limit) : sorted;
  }
  const heap: T[] = [];
  for (const item of scored) {
    if (heap.length < limit) siftUp(heap, item);
    else if (byRelevance(item, heap[0]!) < 0) siftDown(heap, item);
  }
  return heap.sort(byRelevance);
}

/** Adds `item` to a heap whose top is its worst. */
function siftUp<T extends Rankable>(heap: T[], item: T): void {
  let at = heap.push(item) - 1;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (byRelevance(heap[parent]!, item) >= 0) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = item;
}

/** Puts `item` in place of the heap's top (its worst). */
function siftDown<T extends Rankable>(heap: T[], item: T): void {
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && byRelevance(heap[child + 1]!, heap[child]!) > 0) child++;
    if (byRelevance(heap[child]!, item) <= 0) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = item;
}

/** A result with its snippet, from the message `best` points at (`message`: that message, when the store could read it). */
export function toResult(scored: Scored, folded: string, message: SearchableMessage | undefined, width?: number): SearchResult {
  const result: SearchResult = {
    session: scored.session,
    hits: scored.hits + scored.titleHits,
    matched: { id: scored.idMatch, title: scored.titleHits > 0, messages: scored.hits },
  };
  if (scored.best && message) {
    result.snippet = {
      ...makeSnippet(message.content, folded, width),
      message: scored.best.message,
      role: message.role,
      timestamp: message.timestamp,
      archived: message.archived,
    };
  }
  return result;
}
