import { describe, expect, it } from 'vitest';
import { indexNote } from '../../../src/terminal/format-search.js';

describe('indexNote: the one line a search says about its index', () => {
  it('says nothing when the index was up to date', () => {
    expect(indexNote([{ project: '/p', state: 'fresh', reindexed: 0 }])).toBeUndefined();
  });

  it('names why it was rebuilt and how many sessions were read', () => {
    expect(indexNote([{ project: '/p', state: 'missing', reindexed: 1 }])).toBe('Search index rebuilt: it was missing; 1 session indexed.');
    expect(indexNote([{ project: '/p', state: 'damaged', reindexed: 3, detail: 'cut short' }])).toBe('Search index rebuilt: it was damaged (cut short); 3 sessions indexed.');
    expect(indexNote([
      { project: '/p', state: 'missing', reindexed: 2 },
      { project: '/q', state: 'stale', reindexed: 1 },
      { project: '/r', state: 'fresh', reindexed: 0 },
    ])).toBe('Search index rebuilt in 2 projects: it was missing; 3 sessions indexed.');
  });

  it('says what an update read, or that it only dropped sessions that are gone', () => {
    expect(indexNote([{ project: '/p', state: 'stale', reindexed: 2 }])).toBe('Search index updated: 2 sessions new or changed since it was built, read again.');
    expect(indexNote([{ project: '/p', state: 'stale', reindexed: 0 }])).toBe('Search index updated: sessions that are gone were dropped from it.');
  });
});
