/**
 * A session of one user message stored as an import stores it (`adopt`), for the PostgreSQL tests
 * that need a few sessions with known text and times in a member's store.
 */
import { expect } from 'vitest';
import { blankSnapshot } from '../../src/session/format/blank.js';
import type { PostgresStore } from '../../src/store/postgres/store.js';

/** Stores `id` (created and updated at `at`, one message `text`, titled `title` if given) in `store`; its ID. */
export async function adoptedSession(
  store: PostgresStore,
  id: string,
  text: string,
  options: { at?: number; title?: string } = {},
): Promise<string> {
  const at = new Date(options.at ?? Date.UTC(2026, 10, 20));
  const s = blankSnapshot(id, store.project.path, at, 'test');
  s.messages = [{ role: 'user', content: text, timestamp: at }];
  s.stats.messageCount = 1;
  if (options.title !== undefined) s.title = options.title;
  expect(await store.adopt(s)).toBe(true);
  return id;
}
