import { describe, expect, it } from 'vitest';
import { run } from '../../torture/hostile.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: hostile input', () => {
  it('refuses escaping IDs in one line, keeps odd input intact, and survives a full disk', async () => {
    const ids = ['../x', '/etc/passwd', '%2e%2e%2fescaped', 'y'.repeat(100_000), '\uff0e\uff0e\uff0fescaped'];
    const result = await run({ root: tmpHome('chatkeep-torture-'), hugeLineMb: 1, fullDiskRuns: 2, tmpfsRuns: 0, ids, seed: 3 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.hostileIdsTried).toBeGreaterThan(60);
    expect(result.figures.fullDiskRuns).toBe(2);
  }, 180_000);
});
