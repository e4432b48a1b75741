/** A pool for one command (`db`, `sessions share`), closed when the command is done. */
import type { Pool } from 'pg';
import type { Target } from './connect.js';
import { createPool, targetOf } from './connect.js';
import { migrate } from './schema-upgrade.js';

/**
 * Runs `fn` with a pool on the store at `url`. With `migrate`, the schema is brought up to date
 * first (as any command that reads or writes sessions does); `db setup` and `db status` must not.
 */
export async function withPool<T>(
  url: string,
  env: Record<string, string | undefined>,
  fn: (pool: Pool, target: Target) => Promise<T>,
  options: { migrate: boolean },
): Promise<T> {
  const target = targetOf(url, env);
  const pool = await createPool(target);
  try {
    if (options.migrate) await migrate(pool, target);
    return await fn(pool, target);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
