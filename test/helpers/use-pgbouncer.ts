/**
 * A PgBouncer for the tests of one `describe` block: started in front of the test server before
 * them, stopped after them (pgbouncer.ts starts it; the bench and the tortures use that alone).
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { startPgBouncer, type RunningPgBouncer } from './pgbouncer.js';

export function usePgBouncer(mode: 'transaction' | 'statement' | 'session' = 'transaction'): Pick<RunningPgBouncer, 'url'> {
  let bouncer: RunningPgBouncer | undefined;
  beforeAll(async () => {
    bouncer = await startPgBouncer(inject('postgresAdminUrl'), mode);
  }, 120_000);
  afterAll(async () => {
    await bouncer?.stop();
  });
  return {
    url(serverUrl) {
      if (!bouncer) throw new Error('PgBouncer is started before the tests of its describe block: ask for its URL inside a test');
      return bouncer.url(serverUrl);
    },
  };
}
