import { describe, expect, it } from 'vitest';
import { run } from '../../torture/kill9.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: kill -9 at random moments', () => {
  it('loses no message that was on screen, and every session loads at once', async () => {
    const result = await run({ trials: 12, chain: 6, workers: 2, root: tmpHome('chatkeep-torture-'), seed: 7 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.trials).toBe(12);
    expect(result.figures.messagesAcknowledged).toBeGreaterThan(0);
    // Far below the 20 s stale time: a dead holder's lock is taken over at once.
    expect(result.figures.slowestRestartMs).toBeLessThan(10_000);
  }, 120_000);
});
