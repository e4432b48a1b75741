/**
 * Sessions stored whole (import, copies) by the batch on PostgreSQL (docs/design.md §7), as the
 * file store does (src/store/file/adopt-batch.ts): those stored at the same time go in one
 * transaction, one commit (one WAL flush) for the batch instead of one per session. A session that
 * fails is rolled back alone and reported to its caller; the others commit, and each caller is
 * told only once the COMMIT has returned. The batch records its sessions' projects once, first.
 *
 * The batch runs first without a savepoint per session: its rows then carry one transaction ID,
 * not one per session, so the first read after it (a search right after an import) looks one ID up
 * in the commit log to set their hint bits instead of one per session, the server keeps no
 * subtransactions for it (past 64 in one transaction, every other backend's snapshot taken while it
 * runs checks recent rows against pg_subtrans), and it costs two round trips a session fewer. Only
 * when a session fails is the transaction rolled back and the batch run again, a savepoint each
 * (docs/internals.md, "The first search after a bulk write: one transaction ID a batch").
 */
import type { Pool, PoolClient } from 'pg';
import type { ProjectInfo } from '../../session/api/data.js';
import { GroupCommit } from '../group-commit.js';
import { transaction } from './connect.js';
import type { Target } from './connect.js';
import { recordProjects } from './session-rows.js';

/** Sessions committed together at most. */
const BATCH = 128;

/** What became of one session of a batch. */
type Outcome = { stored: boolean } | { err: unknown };

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
    let sessionFailed = false;
    // Together: a session that throws rolls the whole transaction back, and says it was a session.
    const together = async (client: PoolClient, one: Waiting): Promise<Outcome> => {
      try {
        return { stored: await one.store(client) };
      } catch (err) {
        sessionFailed = true;
        throw err;
      }
    };
    let outcomes: Outcome[];
    try {
      outcomes = await this.run(batch, together);
    } catch (err) {
      if (!sessionFailed) return this.failAll(batch, err);
      // A session failed: each one alone this time, so that the others are stored.
      try {
        outcomes = await this.run(batch, alone);
      } catch (again) {
        return this.failAll(batch, again);
      }
    }
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if ('err' in outcome) one.fail(outcome.err);
      else one.settle(outcome.stored);
    });
  }

  /** The batch in one transaction: its projects, then each session as `each` stores it. */
  private run(batch: Waiting[], each: (client: PoolClient, one: Waiting) => Promise<Outcome>): Promise<Outcome[]> {
    return transaction(this.pool, this.target, async (client) => {
      const outcomes: Outcome[] = [];
      // Each project's row once for the batch, before its sessions (which refer to it): one
      // version of the row, where an upsert per session left a dead one per session.
      await recordProjects(client, batch.map((one) => one.project));
      for (const one of batch) outcomes.push(await each(client, one));
      return outcomes;
    });
  }

  private failAll(batch: Waiting[], err: unknown): void {
    for (const one of batch) one.fail(err);
  }
}

/** A session under a savepoint of its own: one that fails is rolled back alone, and its error is its outcome. */
async function alone(client: PoolClient, one: Waiting): Promise<Outcome> {
  await client.query('SAVEPOINT adopt');
  try {
    const stored = await one.store(client);
    await client.query('RELEASE SAVEPOINT adopt');
    return { stored };
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT adopt');
    return { err };
  }
}
