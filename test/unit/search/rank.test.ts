import { describe, expect, it } from 'vitest';
import { byRelevance, rank, searchableMessages } from '../../../src/search/rank.js';
import { searchMessages } from '../../../src/search/search-messages.js';
import type { SessionSummary } from '../../../src/session/api/listing.js';

const at = new Date('2026-11-22T12:00:00Z');
function summary(id: string, minutes: number, title: string | null = null): SessionSummary {
  return { id, title, createdAt: at, updatedAt: new Date(at.getTime() + minutes * 60_000), messageCount: 0, status: 'closed', project: '/p' };
}
const msg = (content: string, role: 'user' | 'assistant' = 'user') => ({ role, content, timestamp: at, archived: false });

describe('searchMessages (the ranking every store shares)', () => {
  it('ranks by hits, then the most recently active, and counts the title', () => {
    const out = searchMessages('cron', [
      { summary: summary('s-old', 0), messages: [msg('cron cron')] },
      { summary: summary('s-new', 5), messages: [msg('cron'), msg('CRON')] },
      { summary: summary('s-one', 9), messages: [msg('a cron job')] },
      { summary: summary('s-title', 1, 'Cron schedule'), messages: [msg('cron')] },
      { summary: summary('s-none', 20), messages: [msg('nothing here')] },
    ]);
    expect(out.total).toBe(4);
    expect(out.results.map((r) => [r.session.id, r.hits])).toEqual([
      ['s-new', 2],
      ['s-title', 2],
      ['s-old', 2],
      ['s-one', 1],
    ]);
    expect(out.results[1]!.matched).toEqual({ id: false, title: true, messages: 1 });
  });

  it('takes the snippet from the message with the most hits, the latest of equals', () => {
    const out = searchMessages('tea', [{ summary: summary('s', 0), messages: [msg('tea'), msg('tea and TEA', 'assistant'), msg('more tea? tea!')] }]);
    expect(out.results[0]!.snippet).toMatchObject({ message: 2, role: 'user', text: 'more tea? tea!', highlights: [[5, 8], [10, 13]] });
  });

  it('finds sessions by ID alone, without a snippet', () => {
    const out = searchMessages('20261122', [{ summary: summary('session-20261122-120000', 0), messages: [msg('hello')] }]);
    expect(out.results[0]).toMatchObject({ hits: 0, matched: { id: true, title: false, messages: 0 } });
    expect(out.results[0]!.snippet).toBeUndefined();
  });

  it('numbers archived messages (cleared by /reset) first and says so', () => {
    const messages = searchableMessages({
      archived: [{ archivedAt: at, summary: null, stats: { messageCount: 1, inputTokens: 0, outputTokens: 0 }, messages: [{ role: 'user', content: 'old secret plan', timestamp: at }] }],
      messages: [{ role: 'user', content: 'new topic', timestamp: at }],
    });
    const out = searchMessages('plan', [{ summary: summary('s', 0), messages }]);
    expect(out.results[0]!.snippet).toMatchObject({ message: 0, archived: true, text: 'old secret plan' });
  });

  it('keeps the first `limit` results and the total', () => {
    const sessions = Array.from({ length: 5 }, (_, i) => ({ summary: summary(`s${i}`, i), messages: [msg('x')] }));
    const out = searchMessages('x', sessions, 2);
    expect(out.total).toBe(5);
    expect(out.results.map((r) => r.session.id)).toEqual(['s4', 's3']);
    expect(searchMessages('x', sessions, 0).results).toHaveLength(5);
  });
});

describe('rank (the first `limit` of many)', () => {
  it('keeps the same first results as sorting them all, ties broken by time, then ID', () => {
    // Hits from 0 to 3 and times from 8 values: many ties, broken as the full order breaks them.
    const items = Array.from({ length: 500 }, (_, i) => ({
      hits: (i * 7) % 4,
      titleHits: i % 5 === 0 ? 1 : 0,
      session: { id: `s-${(i * 7919) % 1000}`, updatedAt: new Date(at.getTime() + ((i * 13) % 8) * 60_000) },
    }));
    const all = rank(items, 0);
    for (let i = 1; i < all.length; i++) expect(byRelevance(all[i - 1]!, all[i]!)).toBeLessThan(0);
    for (const limit of [1, 2, 20, 99, 124, 125, 499, 500, 501]) {
      expect(rank(items, limit).map((r) => r.session.id)).toEqual(all.slice(0, limit).map((r) => r.session.id));
      expect(rank(items.slice().reverse(), limit).map((r) => r.session.id)).toEqual(all.slice(0, limit).map((r) => r.session.id));
    }
  });
});
