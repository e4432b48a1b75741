import { describe, expect, it } from 'vitest';
import { run } from '../../torture/races.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: races', () => {
  it('gives racing creators distinct IDs, one winner per lock race, and loses no message to autosave ticks', async () => {
    const result = await run({ root: tmpHome('chatkeep-torture-'), creators: 20, lockRounds: 30, replRounds: 2, autosaveRuns: 1, autosaveLines: 60, seed: 5 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.distinctIds).toBe(20);
    expect(result.figures.idsInOneSecond).toBe(20);
    expect(result.figures.lockRounds).toBe(30);
    expect(result.figures.messagesSent).toBeGreaterThan(30);
  }, 120_000);
});
