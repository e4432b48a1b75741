import { describe, expect, it } from 'vitest';
import { run, secretCorpus } from '../../torture/redaction.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: redaction', () => {
  it('leaves none of the corpus secrets on disk and alters under 1% of ordinary lines', async () => {
    expect(secretCorpus().length).toBeGreaterThanOrEqual(30);
    const result = await run({ root: tmpHome('chatkeep-torture-'), seed: 9 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.ordinaryLinesAltered! * 100).toBeLessThan(result.figures.ordinaryLines!);
  }, 120_000);
});
