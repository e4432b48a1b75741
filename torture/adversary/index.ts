/**
 * `adversary`: what others than this build of chatkeep write, on both stores: every trial of
 * `ADVERSARY_TRIALS` on the data directory, then on a PostgreSQL server started for the part.
 * Messages lost, phantom or duplicated messages, events dropped, snapshots left damaged: all 0.
 */
import { Tally, type PartResult } from '../part.js';
import { withPostgres } from '../postgres-server.js';
import { ADVERSARY_TRIALS, MUST_BE_ZERO, type AdversaryStore } from './trials.js';

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
  await withPostgres(({ url }) => on({ kind: 'postgres', url }));
  const result = tally.result();
  result.mustBeZero.push('trialsFailed');
  return result;
}
