import { describe, expect, it } from 'vitest';
import { run } from '../../torture/slow-holder.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: slow holder', () => {
  it('never lets two processes write one session, loses nothing typed, and prints no false Saved', async () => {
    // One trial of each kind: frozen with another host taking over (typing, then quitting), a
    // frozen holder against this host, a picker left open against both.
    const result = await run({ root: tmpHome('chatkeep-torture-'), trials: 5, workers: 3, seed: 3 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 5, takeovers: 2, refused: 3, forks: 1, takenBack: 1 });
  }, 120_000);
});
