/**
 * Sessions stored whole (import, copies) by the batch on PostgreSQL (docs/design.md §7), as the
 * file store does (src/store/file/adopt-batch.ts): those stored at the same time go in one
 * transaction, one commit (one WAL flush) for the batch instead of one per session. Each session
 * runs under its own savepoint, so one that fails is rolled back alone and reported to its
 * caller; the others commit, and each caller is told only once the COMMIT has returned. The
 * batch records its sessions' projects once, first.
 */
import type { Pool, PoolClient } from 'pg';
import type { ProjectInfo } from '../../session/api/data.js';
import { GroupCommit } from '../group-commit.js';
import { transaction } from './connect.js';
import type { Target } from './connect.js';
import { recordProjects } from './session-rows.js';

/** Sessions committed together at most. */
const BATCH = 128;

interface Waiting {
  project: ProjectInfo;
  store: (client: PoolClient) => Promise<boolean>;
  settle: (stored: boolean) => void;
  fail: (err: unknown) => void;
}

export class PgAdoptBatches {
  private readonly queue = new GroupCommit<Waiting>(BATCH, (batch) => this.commit(batch));

  constructor(
    private readonly pool: Pool,
    private readonly target: Target,
  ) {}

  /**
   * Runs `store` in the next batch's transaction, after the batch's projects are recorded
   * (`project` among them); resolves to its answer once that transaction committed.
   */
  adopt(project: ProjectInfo, store: (client: PoolClient) => Promise<boolean>): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.queue.add({ project, store, settle, fail });
    });
  }

  private async commit(batch: Waiting[]): Promise<void> {
    const outcomes: ({ stored: boolean } | { err: unknown })[] = [];
    try {
      await transaction(this.pool, this.target, async (client) => {
        // Each project's row once for the batch, before its sessions (which refer to it): one
        // version of the row, where an upsert per session left a dead one per session.
        await recordProjects(client, batch.map((one) => one.project));
        for (const one of batch) {
          await client.query('SAVEPOINT adopt');
          try {
            outcomes.push({ stored: await one.store(client) });
            await client.query('RELEASE SAVEPOINT adopt');
          } catch (err) {
            await client.query('ROLLBACK TO SAVEPOINT adopt');
            outcomes.push({ err });
          }
        }
      });
    } catch (err) {
      for (const one of batch) one.fail(err);
      return;
    }
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if ('err' in outcome) one.fail(outcome.err);
      else one.settle(outcome.stored);
    });
  }
}
