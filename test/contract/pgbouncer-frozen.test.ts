/**
 * A holder frozen inside a transaction through PgBouncer (SIGSTOP mid-save): its transaction
 * holds the session's row, so without limits the server keeps it open for as long as the holder
 * stays frozen and everyone else waits. chatkeep's transactions carry
 * `idle_in_transaction_session_timeout`: the server ends the frozen one, and once the lease runs
 * out another chatkeep takes the session over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { SessionInUseError } from '../../src/session/api/errors.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { usePgBouncer } from '../helpers/use-pgbouncer.js';
import { createDatabase } from '../helpers/postgres.js';
import { AT, savedSession } from './contract-kit.js';
import { tmpHome } from '../helpers/tmp-home.js';

const dist = (path: string): string => new URL(`../../dist/src/${path}`, import.meta.url).href;

/** A child that takes `id`'s lock through `url` and stops inside a transaction of a save, its row updated. */
const FREEZER = `
const [storeModule, connectModule, interpreterModule, url, id, cwd] = process.argv.slice(1);
const { interpreter } = await import(interpreterModule);
const { onOneConnection, DEFAULT_TIMEOUTS } = await import(connectModule);
const timeouts = { ...DEFAULT_TIMEOUTS, leaseMs: 3000 };
const store = await (await import(storeModule)).openPostgresStore(url, { interpreter, cwd, timeouts });
const lock = await store.lock(id, () => {});
void lock.write((c) => onOneConnection(c, timeouts, async () => {
  await c.query('UPDATE chatkeep.sessions SET updated_at = now() WHERE id = $1', [id]);
  console.log('inside');
  await new Promise(() => {});
}));
`;

describe('a holder frozen inside a transaction through PgBouncer', () => {
  const bouncer = usePgBouncer();

  it('costs the others the lease and a few seconds, not as long as it stays frozen', async () => {
    const direct = await createDatabase(inject('postgresAdminUrl'));
    const pooled = bouncer.url(direct);
    const cwd = tmpHome('chatkeep-frozen-');
    const first = await openPostgresStore(direct, { interpreter, cwd });
    const { id } = await savedSession(first, AT, ['one']);
    await first.close();

    const child: ChildProcess = spawn(
      process.execPath,
      ['--input-type=module', '-e', FREEZER, dist('store/postgres/store.js'), dist('store/postgres/connect.js'), dist('session/runtime/interpreter.js'), pooled, id, cwd],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const store = await openPostgresStore(pooled, { interpreter, cwd });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('inside')) resolve();
        });
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => reject(new Error(`the freezer exited (${code}): ${output}`)));
      });
      child.kill('SIGSTOP');
      // The others: a listing answers, and the session is taken over (refused as in use while the lease lasts).
      expect((await store.list([store.project])).length).toBeGreaterThanOrEqual(0);
      const errors: string[] = [];
      let taken = false;
      for (let attempt = 0; attempt < 20 && !taken; attempt++) {
        try {
          const lock = await store.lock(id, () => undefined);
          await lock.release();
          taken = true;
        } catch (err) {
          if (!(err instanceof SessionInUseError)) errors.push(String(err));
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
      expect(errors).toEqual([]);
      expect(taken).toBe(true);
    } finally {
      child.kill('SIGKILL');
      child.kill('SIGCONT');
      await store.close();
    }
  }, 120_000);
});
