import { describe, expect, it } from 'vitest';
import { indexNote } from '../../../src/terminal/format-search.js';

describe('indexNote: the one line a search says about its index', () => {
  it('says nothing when the index was up to date', () => {
    expect(indexNote([{ project: '/p', state: 'fresh', reindexed: 0 }])).toBeUndefined();
  });

  it('says nothing when the index was missing or behind the sessions: the cache doing its job', () => {
    expect(indexNote([{ project: '/p', state: 'missing', reindexed: 1 }])).toBeUndefined();
    expect(indexNote([{ project: '/p', state: 'stale', reindexed: 2 }])).toBeUndefined();
    expect(indexNote([{ project: '/p', state: 'stale', reindexed: 0 }])).toBeUndefined();
  });

  it('names the damage it rebuilt from and how many sessions were read', () => {
    expect(indexNote([{ project: '/p', state: 'damaged', reindexed: 3, detail: 'cut short' }])).toBe('Search index rebuilt: it was damaged (cut short); 3 sessions indexed.');
    expect(indexNote([
      { project: '/p', state: 'damaged', reindexed: 2, detail: 'cut short' },
      { project: '/q', state: 'missing', reindexed: 1 },
      { project: '/r', state: 'damaged', reindexed: 1, detail: 'cut short' },
    ])).toBe('Search index rebuilt in 2 projects: it was damaged (cut short); 3 sessions indexed.');
  });
});
