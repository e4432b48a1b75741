import { describe, expect, it } from 'vitest';
import { run } from '../../torture/hangup.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: hang-ups', () => {
  it('a closed terminal never crashes, never loses what was shown, and leaves no lock behind', async () => {
    // Two of each moment: idle, mid-typing, mid-reply, inside the /load picker.
    const result = await run({ root: tmpHome('chatkeep-torture-'), trials: 8, seed: 5 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 8, idle: 2, typing: 2, reply: 2, picker: 2 });
    expect(result.figures.messagesShown).toBeGreaterThan(8);
  }, 120_000);
});
