/**
 * `adversary`: what others than this build of chatkeep write, on both stores: every trial of
 * `ADVERSARY_TRIALS` on the data directory, then on a PostgreSQL server started for the part,
 * where the team's trials follow (each member's plain SQL against every table, squats).
 * Messages lost, phantom or duplicated messages, events dropped, snapshots left damaged,
 * forgeries taken, members blocked: all 0.
 */
import { Tally, type PartResult } from '../part.js';
import { withPostgres } from '../postgres-server.js';
import { runPgAdversary } from './pg-part.js';
import { ADVERSARY_TRIALS, MUST_BE_ZERO } from './trials.js';
import type { AdversaryStore } from './trial.js';

export interface AdversaryOptions {
  root: string;
  quick: boolean;
  seed: number;
}

export async function run(options: AdversaryOptions): Promise<PartResult> {
  const tally = new Tally('adversary', { trials: 0 }, MUST_BE_ZERO);
  const on = async (store: AdversaryStore): Promise<void> => {
    for (const trial of ADVERSARY_TRIALS) {
      if (!trial.stores.includes(store.kind)) continue;
      try {
        await trial.run({ ...options, store, tally });
      } catch (err) {
        tally.fail('trialsFailed', `${trial.name} (${store.kind}): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
  tally.add('trialsFailed', 0);
  await on({ kind: 'file' });
  const team = await withPostgres(async ({ url }) => {
    await on({ kind: 'postgres', url });
    return runPgAdversary({ root: options.root, url, seed: options.seed, rounds: options.quick ? 1 : 3 });
  });
  for (const [name, n] of Object.entries(team.figures)) tally.add(name, n);
  const result = tally.result();
  result.mustBeZero.push('trialsFailed', ...team.mustBeZero);
  result.failures.push(...team.failures);
  return result;
}
