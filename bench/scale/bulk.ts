/**
 * The scale bench's bulk write: 100 sessions of 20 messages stored by a member's store as an
 * import stores them (`adopt`), one in ten holding RARE. reads.ts times the search after each
 * such round; test/contract/postgres-search-bench-shape.test.ts searches the server it leaves.
 */
import type { PostgresStore } from '../../src/store/postgres/store.js';
import { blankSnapshot } from '../../src/session/format/blank.js';
import { makeMessages } from '../data.js';
import { RARE } from './shape.js';

/** Sessions a round stores. */
export const BULK = 100;

/** Round `round`'s sessions, stored by `member` at once, on the server of `n` sessions (their IDs and times follow from both). */
export async function bulkWrite(member: PostgresStore, n: number, round: number): Promise<void> {
  const base = Date.UTC(2026, 10, 2) + n;
  await Promise.all(Array.from({ length: BULK }, async (_, j) => {
    const i = round * BULK + j;
    const s = blankSnapshot(`scale-bulk-${n}-${i}`, member.project.path, new Date(base + i), 'bench');
    s.messages = makeMessages(20, 300, i).map((m, k) => (k === 5 && i % 10 === 0 ? { ...m, content: `${m.content} ${RARE}` } : m));
    s.stats.messageCount = s.messages.length;
    await member.adopt(s);
  }));
}
