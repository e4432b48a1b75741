import { describe, expect, inject, it } from 'vitest';
import { run as races } from '../../torture/pooler-races.js';
import { run as thaw } from '../../torture/thaw.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { usePgBouncer } from '../helpers/use-pgbouncer.js';
import { createDatabase } from '../helpers/postgres.js';

describe('torture: one writer is a fence (docs/design.md §12)', () => {
  const bouncer = usePgBouncer();

  it('two writers through PgBouncer in transaction pooling: exactly one wins each race, no acknowledged message is lost or rolled back, no lock is left', async () => {
    const direct = await createDatabase(inject('postgresAdminUrl'));
    const result = await races({ root: tmpHome('chatkeep-torture-'), direct, pooled: bouncer.url(direct), races: 6, seed: 5 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.races).toBe(6);
    expect(result.figures.messagesAcknowledged).toBeGreaterThan(0);
  }, 180_000);

  it('a holder frozen past its stale time on another host, thawed after this host took over: nothing it writes lands (files)', async () => {
    const result = await thaw({ part: 'thaw', root: tmpHome('chatkeep-torture-'), trials: 2, seed: 3 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 2, takeovers: 2, refusedAfterThaw: 2 });
  }, 120_000);

  it('the same on PostgreSQL through PgBouncer, where the lock is a lease that runs out', async () => {
    const direct = await createDatabase(inject('postgresAdminUrl'));
    const result = await thaw({ part: 'pg-thaw', root: tmpHome('chatkeep-torture-'), trials: 2, seed: 3, store: bouncer.url(direct) });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 2, takeovers: 2, refusedAfterThaw: 2 });
  }, 120_000);
});
