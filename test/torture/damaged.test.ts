import { describe, expect, it } from 'vitest';
import { run } from '../../torture/damaged.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: damaged files', () => {
  it('loads what it can, keeps the damaged bytes and says so in one line', async () => {
    const only = ['truncated snapshot', 'directory for snapshot', 'directory for journal', 'snapshot fails schema', 'snapshot wrong types', 'future schemaVersion', 'garbage mid-journal', 'damaged index', 'damaged project.json'];
    const result = await run({ root: tmpHome('chatkeep-torture-'), only });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.cases).toBe(only.length);
    expect(result.figures.casesRecovered).toBe(only.length);
  }, 120_000);
});
