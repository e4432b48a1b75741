/** What an `adversary` trial is and what it gets (trials.ts lists them). */
import type { Tally } from '../part.js';

/** Where a trial runs: the data directory, or a PostgreSQL database of a server started for the part. */
export type AdversaryStore = { kind: 'file' } | { kind: 'postgres'; url: string };

/** What every trial gets. */
export interface AdversaryContext {
  root: string;
  store: AdversaryStore;
  quick: boolean;
  seed: number;
  tally: Tally;
}

/** One trial: its name, the stores it applies to, and the run that adds to the part's figures. */
export interface AdversaryTrial {
  name: string;
  stores: AdversaryStore['kind'][];
  run(context: AdversaryContext): Promise<void>;
}
