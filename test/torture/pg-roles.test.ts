import { describe, expect, inject, it } from 'vitest';
import { run } from '../../torture/pg-roles.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';

describe('torture: two roles on one team server', () => {
  it('lets neither see nor change the other\'s sessions, through chatkeep or plain SQL (a read-only share stays read-only)', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const result = await run({ root: tmpHome('chatkeep-torture-'), url, sessions: 3, cliProbes: 1, seed: 7 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.tablesProbed).toBeGreaterThanOrEqual(10);
    expect(result.figures.cliProbes).toBeGreaterThanOrEqual(16);
    expect(result.figures.sqlProbes).toBeGreaterThan(40);
  }, 180_000);
});
