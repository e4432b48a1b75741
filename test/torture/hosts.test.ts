import { describe, expect, it } from 'vitest';
import { run } from '../../torture/hosts.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: kill -9 of the embedding examples', () => {
  it('node:repl, readline and the streaming readline host lose nothing shown, and the next start resumes', async () => {
    // One chain of 3 kills per host, each start resuming the session the last kill left.
    const result = await run({ root: tmpHome('chatkeep-torture-'), trials: 9, chain: 3, seed: 3 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 9, resumedAfterKill: 9 });
    expect(result.figures.linesShown).toBeGreaterThan(3);
  }, 180_000);
});
