/**
 * What the browser reads of a large listing: a keystroke reads no row's branch or project path
 * once the scope has been searched (each distinct one is folded once per listing, not every row
 * per keystroke), and arranging rows into families reads nothing of a row that has no fork
 * (at 100,000 sessions these were most of a keystroke's and of the first full paint's time).
 */
import { describe, expect, it } from 'vitest';
import { arrange } from '../../../src/browser/families.js';
import { findSessions } from '../../../src/browser/find-sessions.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';
import type { SearchOptions, SearchResults } from '../../../src/session/api/search-data.js';

const NOW = new Date('2026-11-28T12:00:00Z');

/** Rows whose reads of `fields` are counted. */
function counted(n: number, fields: readonly string[]): { rows: SessionSummary[]; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const rows = Array.from({ length: n }, (_, i) => {
    const row: SessionSummary = { id: `session-20261128-${String(i).padStart(6, '0')}`, title: `talk ${i}`, createdAt: NOW, updatedAt: NOW, messageCount: 2, status: 'closed', project: '/here', branch: i % 2 ? 'main' : 'feature-x' };
    return new Proxy(row, {
      get(target, key, receiver) {
        if (typeof key === 'string' && fields.includes(key)) reads.set(key, (reads.get(key) ?? 0) + 1);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  });
  return { rows, reads };
}

/** A search that finds the first row, and what each call asked for. */
const asked: SearchOptions[] = [];
const search = (rows: SessionSummary[]) => async (_query: string, options: SearchOptions = {}): Promise<SearchResults> => {
  asked.push(options);
  return { query: 'x', total: 1, results: [{ session: rows[0]!, hits: 1, matched: { id: false, title: false, messages: 1 } }], index: [] };
};

describe('session browser: what a large listing costs a keystroke', () => {
  it('reads no row again for a keystroke over the same listing, and still finds branches and paths', async () => {
    const { rows, reads } = counted(1000, ['branch', 'project']);
    const sessions = { search: search(rows) };
    const first = await findSessions(sessions, rows, 'feature', false, 100);
    expect(first.ids).toHaveLength(500);
    expect(first.ids[0]).toBe(rows[0]!.id);
    reads.clear();
    // The next keystroke: a query no branch or path holds walks no row.
    const next = await findSessions(sessions, rows, 'featurez', false, 100);
    expect(next.ids).toEqual([rows[0]!.id]);
    expect(reads.get('branch') ?? 0).toBe(0);
    expect(reads.get('project') ?? 0).toBe(0);
    // What a keystroke asks the store: the first screenfuls, without snippets (the browser shows none).
    expect(asked.at(-1)).toEqual({ all: false, limit: 100, snippets: false });
  });

  it('reads nothing but the ID and parent of rows that have no fork', () => {
    const { rows, reads } = counted(1000, ['title', 'derivedTitle', 'createdAt', 'messageCount', 'updatedAt']);
    const entries = arrange(rows, { fold: true, open: new Set() });
    expect(entries.map((entry) => entry.row.id)).toEqual(rows.map((row) => row.id));
    expect([...reads.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });
});
