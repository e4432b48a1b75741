import { describe, expect, inject, it } from 'vitest';
import { run } from '../../torture/kill9.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { createDatabase } from '../helpers/postgres.js';

describe('torture: kill -9 mid-reply with the sessions on PostgreSQL', () => {
  it('loses no message that was on screen, and the next start takes the dead process’s lock', async () => {
    const store = await createDatabase(inject('postgresAdminUrl'));
    const result = await run({ part: 'pg-kill9', trials: 10, chain: 5, workers: 2, root: tmpHome('chatkeep-torture-'), seed: 3, store, moments: ['streaming'] });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.trials).toBe(10);
    expect(result.figures.killedWhileStreaming).toBe(10);
    expect(result.figures.messagesAcknowledged).toBeGreaterThan(0);
  }, 120_000);
});
